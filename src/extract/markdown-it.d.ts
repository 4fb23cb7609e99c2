// markdown-it ships no types; the one call made here (render with raw HTML off).
declare module 'markdown-it' {
  interface MarkdownItOptions {
    html?: boolean;
    linkify?: boolean;
  }
  export default class MarkdownIt {
    constructor(options?: MarkdownItOptions);
    render(markdown: string): string;
  }
}
