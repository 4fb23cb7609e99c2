// What a page costs, in one place: site.page prices its task with it and site.crawl its pages (a crawl's
// page is a site.page task, so the two cannot disagree). A page rendered in Chromium costs what a browser
// tool's page does; a plain fetch a third of it.
import { microsToUsd, usdToMicros } from '../registry/usd.js';

export const PLAIN_PAGE_USD = '0.001';
export const RENDERED_PAGE_USD = '0.003';

export function pagePriceUsd(render: boolean): string {
  return render ? RENDERED_PAGE_USD : PLAIN_PAGE_USD;
}

export function pagePriceMicros(render: boolean): number {
  return usdToMicros(pagePriceUsd(render));
}

/**
 * The most a crawl's pages can cost: `limit` pages, fewer when max_cost (USD) allows fewer. The crawler stops
 * at the same bound (crawler.ts), so a crawl paid this up front never creates a page it was not paid for.
 */
export function crawlPagesPaid(input: { limit: number; render: boolean; max_cost?: number | undefined }): number {
  const page = pagePriceMicros(input.render);
  const byCost = input.max_cost === undefined ? Infinity : Math.floor(Math.round(input.max_cost * 1_000_000) / page);
  return Math.min(input.limit, byCost);
}

export function crawlPagesBudgetUsd(input: { limit: number; render: boolean; max_cost?: number | undefined }): string {
  return microsToUsd(crawlPagesPaid(input) * pagePriceMicros(input.render));
}
