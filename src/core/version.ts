declare const __PAYCLI_VERSION__: string | undefined;
/** paycli's version, injected from package.json at build time (tsup `define`). */
export const VERSION: string = typeof __PAYCLI_VERSION__ === 'string' ? __PAYCLI_VERSION__ : '0.0.0-dev';
