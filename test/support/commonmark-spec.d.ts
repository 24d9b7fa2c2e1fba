/** The `commonmark-spec` package ships no types: the shape of its examples. */
declare module 'commonmark-spec' {
  const spec: {
    text: string;
    tests: { markdown: string; html: string; section: string; number: number }[];
  };
  export default spec;
}
