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
  /** The longest idle callback (one slice of the warm-up) and how many ran. */
  longestSliceMs: number;
  slices: number;
  /** The backslash escapes the serializer wrote, before the pass. */
  escapes: number;
  chars: number;
}
