/**
 * The model pulls a session runs beside its conversations (the `models`
 * tool's, once the person approved): at most one per model, each with its
 * own stop. The session cancels what still runs when it ends; what arrived
 * is kept for the next pull to resume.
 */

/** One pull running: what it fetches, the approval that started it, its stop and its end. */
interface RunningPull {
  approval: string | undefined;
  controller: AbortController;
  done: Promise<void>;
  stopped: (reason: string) => void;
}

export class ModelPulls {
  #running = new Map<string, RunningPull>();

  /** The approval of the pull of `key` that runs now, or undefined when none runs ("" when it had none). */
  running(key: string): string | undefined {
    const pull = this.#running.get(key);
    return pull ? pull.approval ?? "" : undefined;
  }

  /**
   * Start `work` for `key` unless a pull of it runs already (then false).
   * `work` gets the pull's stop signal and reports its own outcome; whatever
   * it throws is caught here, so nothing escapes the session. `stopped` is
   * called at once, before the stop reaches the work, when the pull is
   * cancelled: the session's audit may close right after, so the
   * cancellation is reported then, not when the work unwinds.
   */
  start(
    key: string,
    approval: string | undefined,
    work: (signal: AbortSignal) => Promise<void>,
    stopped: (reason: string) => void,
  ): boolean {
    if (this.#running.has(key)) return false;
    const controller = new AbortController();
    const done = (async () => {
      try {
        await work(controller.signal);
      } catch {
        /* the work reported its outcome itself */
      } finally {
        this.#running.delete(key);
      }
    })();
    this.#running.set(key, { approval, controller, done, stopped });
    return true;
  }

  /** Stop every pull still running (the session is ending, or the person cancelled them). */
  cancelAll(reason = "the session ended"): void {
    for (const pull of this.#running.values()) {
      if (pull.controller.signal.aborted) continue;
      pull.stopped(reason);
      pull.controller.abort(new Error(reason));
    }
  }

  /** Resolves when every pull started so far has ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.#running.values()].map((p) => p.done));
  }
}
