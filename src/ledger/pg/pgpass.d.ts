/** The `pgpass` module (the password file reader of the `pg` project): the password for a connection, or undefined. */
declare module 'pgpass' {
  function pgPass(connInfo: { host?: string; port?: number; database?: string; user?: string }, cb: (password: string | undefined) => void): void;
  export default pgPass;
}
