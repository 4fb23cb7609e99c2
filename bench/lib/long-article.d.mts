/** An article page of about `bytes` bytes of HTML (bench/lib/long-article.mjs). */
export function longArticle(bytes: number, title?: string): string;
