/** The shell bodies and the awk program are bundled as text (tsup.config.ts, `loader`). */
declare module '*.bash' {
  const text: string;
  export default text;
}
declare module '*.zsh' {
  const text: string;
  export default text;
}
declare module '*.fish' {
  const text: string;
  export default text;
}
declare module '*.awk' {
  const text: string;
  export default text;
}
