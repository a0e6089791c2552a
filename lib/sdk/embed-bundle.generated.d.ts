// Types of the module scripts/build-embed.mjs generates (the .js is built, not committed).
/** lib/sdk/embed.ts bundled as a browser script defining the global `Quire`. */
export declare const bundle: string;
/** A strong ETag of the bundle. */
export declare const etag: string;
