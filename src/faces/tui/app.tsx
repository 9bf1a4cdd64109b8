/**
 * The ink side of wisp-tui: the band's rows as a column of text, the
 * terminal's cursor where typing goes, and the one way to print above the
 * band (ink erases the band, writes the lines into the scrollback, and draws
 * the band again, all in the same frame).
 */
import React, { useEffect } from "react";
import { Box, Text, useCursor, useStdout } from "ink";
import type { Band } from "./band.ts";

/** The band, and a way out for ink's writer. */
export function BandView(
  props: { band: Band; onWriter: (write: (text: string) => void) => void },
): React.ReactElement {
  const { write } = useStdout();
  const { setCursorPosition } = useCursor();
  useEffect(() => props.onWriter(write), [write]);
  // Set while rendering, so the cursor moves in the same frame as the rows.
  setCursorPosition(props.band.cursor);
  return (
    <Box flexDirection="column">
      {props.band.rows.map((row, i) => <Text key={i} wrap="truncate-end">{row === "" ? " " : row}</Text>)}
    </Box>
  );
}
