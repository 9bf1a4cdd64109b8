/**
 * The ink side of wisp-tui: the band's rows as a column of text, the
 * terminal's cursor where typing goes, and the one way to print above the
 * band (ink erases the band, writes the lines into the scrollback, and draws
 * the band again, all in the same frame).
 */
import React, { useEffect } from "react";
import { Box, Text, useCursor, useStdout } from "ink";
import type { Band } from "./band.ts";

const h = React.createElement;

/** Props of the band's view. */
export interface BandViewProps {
  band: Band;
  /** Given ink's writer, which prints above the band. */
  onWriter: (write: (text: string) => void) => void;
}

/** The band, and a way out for ink's writer. */
export function BandView(props: BandViewProps): React.ReactElement {
  const { write } = useStdout();
  const { setCursorPosition } = useCursor();
  useEffect(() => props.onWriter(write), [write]);
  // Set while rendering, so the cursor moves in the same frame as the rows.
  setCursorPosition(props.band.cursor);
  return h(
    Box,
    { flexDirection: "column" },
    ...props.band.rows.map((row, i) =>
      h(Text, { key: i, wrap: "truncate-end" }, row === "" ? " " : row)
    ),
  );
}
