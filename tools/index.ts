// The explicit list of tools. A tool is listed here once its file exists; nothing is discovered by magic.
import type { AnyTool } from '../src/registry/define-tool.js';
import browserContent from './browser.content.js';
import browserLinks from './browser.links.js';
import browserMarkdown from './browser.markdown.js';
import browserPdf from './browser.pdf.js';
import browserScrape from './browser.scrape.js';
import browserScreenshot from './browser.screenshot.js';
import browserSnapshot from './browser.snapshot.js';
import dnsLookup from './dns.lookup.js';
import emailVerify from './email.verify.js';
import geoLocate from './geo.locate.js';
import ipGeolocate from './ip.geolocate.js';
import urlStatus from './url.status.js';
import siteMap from './site.map.js';
import siteCrawl from './site.crawl.js';
import sitePage from './site.page.js';
import homeservicesRequest from './homeservices.request.js';
import homeservicesSearch from './homeservices.search.js';

export const tools: AnyTool[] = [
  emailVerify,
  dnsLookup,
  ipGeolocate,
  geoLocate,
  urlStatus,
  homeservicesSearch,
  homeservicesRequest,
  browserScreenshot,
  browserPdf,
  browserContent,
  browserMarkdown,
  browserScrape,
  browserLinks,
  browserSnapshot,
  siteMap,
  sitePage,
  siteCrawl,
];
