/**
 * notify: the model tells the person something — a long task finished, or it
 * needs them. The session's Notifier applies the off switch, the bounds and
 * the per-minute limit, then posts through the first route that works.
 */
import { z } from "zod";
import type { Tool } from "./tool.ts";
import { BOUNDS } from "../notify/notifier.ts";

const notifySchema = z.object({
  title: z.string().optional().describe("a short title (default: wisp)"),
  message: z.string().describe("what to tell the person, one or two sentences"),
  subtitle: z.string().optional().describe("an optional second line"),
  sound: z.boolean().optional().describe("play the notification sound"),
}).strict();

type Args = z.infer<typeof notifySchema>;

export const notifyTool: Tool<Args> = {
  name: "notify",
  description:
    "Shows the person a desktop notification with a title and a message, for when a long task has finished or you need them. " +
    "Use it only when asked to notify, or when the task says to.",
  schema: notifySchema,
  parallelSafe: false,
  gatesBeforeEffect: false,
  limits: (config) => [
    `At most ${config.notifications.perMinute} a minute; title up to ${BOUNDS.title} characters, message up to ${BOUNDS.message}.`,
    config.notifications.enabled
      ? "Notifications are on."
      : "Notifications are off here (notifications.enabled is false).",
  ],
  examplePrompt:
    'Use notify with title "Build" and message "The tests pass" to tell me the build is done.',
  async run(args, ctx) {
    const notifier = ctx.notifier;
    const record = (fields: Record<string, unknown>) =>
      ctx.audit.record("notification", {
        source: "model",
        title: args.title ?? "wisp",
        message: args.message,
        ...fields,
      });
    if (!notifier) {
      record({ route: null, posted: false, reason: "this session cannot post notifications" });
      return {
        ok: false,
        text: "error: notification not shown: this session cannot post notifications",
      };
    }
    const outcome = await notifier.notify({
      title: args.title ?? "wisp",
      message: args.message,
      subtitle: args.subtitle,
      sound: args.sound,
    });
    record({
      route: outcome.route ?? null,
      posted: outcome.posted,
      ...(outcome.reason ? { reason: outcome.reason } : {}),
    });
    return outcome.posted
      ? {
        ok: true,
        text: `notification posted via ${outcome.route}`,
        meta: { route: outcome.route },
      }
      : { ok: false, text: `error: notification not shown: ${outcome.reason}` };
  },
};
