/** The first save of a long description (bench/editor.ts), timed in the harness page. */
export interface FirstSave {
  /** Milliseconds of the serializer alone (what the save costs without the escape pass). */
  serializerMs: number;
  /** Milliseconds of the escape pass on what the serializer wrote. */
  passMs: number;
  /** The pass again on the same text (its results remembered). */
  againMs: number;
  /** The longest frame (requestAnimationFrame delta) while the editor sat idle before the save. */
  longestFrameMs: number;
  /** The first of those frames: the one that lays out and paints the editor just made. */
  firstFrameMs: number;
  /** The longest frame an idle callback of the editor ran in, over every idle period. */
  longestIdleFrameMs: number;
  /** Idle periods whose frame took over 50 ms. */
  idleFramesOver50: number;
  /** The longest idle callback (one slice of the warm-up) and how many ran. */
  longestSliceMs: number;
  slices: number;
  /** The backslash escapes the serializer wrote, before the pass. */
  escapes: number;
  chars: number;
}
