// The part of jsdom (a devDependency) that the page script's tests use;
// jsdom ships no types of its own and @types/jsdom lags its versions.
declare module 'jsdom' {
  export interface ConstructorOptions {
    url?: string;
    runScripts?: 'dangerously' | 'outside-only';
  }
  export class JSDOM {
    constructor(html?: string, options?: ConstructorOptions);
    readonly window: Window & typeof globalThis;
  }
}
