// Vocabulary as data: the <meta> names and properties (lower-cased) that declare a page's metadata, per
// field, first preferred. OpenGraph and Twitter cards come first, then the article and Dublin Core terms,
// then the analytics vendors' conventions that publishers fill for their own tools (Parse.ly, Sailthru).
// A name is read as the page wrote it: "dc.creator" and "dc:creator" are two spellings of one term.

export const META_NAMES = {
  title: ['og:title', 'twitter:title', 'dc.title', 'dc:title', 'dcterms.title', 'dcterms:title', 'parsely-title', 'sailthru.title'],
  byline: [
    'author',
    'article:author',
    'og:article:author',
    'dc.creator',
    'dc:creator',
    'dcterms.creator',
    'dcterms:creator',
    'parsely-author',
    'sailthru.author',
  ],
  published: [
    'article:published_time',
    'og:article:published_time',
    'date',
    'dc.date',
    'dc:date',
    'dcterms.created',
    'dcterms:created',
    'dc.date.issued',
    'dcterms.issued',
    'parsely-pub-date',
    'sailthru.date',
    'pubdate',
    'publish-date',
  ],
  /** The site's own OpenGraph name: read before an article's JSON-LD publisher, which is sometimes a parent company. */
  siteName: ['og:site_name'],
  /** Read after the JSON-LD publisher. */
  siteNameFallback: ['application-name', 'dc.publisher', 'dc:publisher', 'dcterms.publisher', 'dcterms:publisher'],
  description: ['description', 'og:description', 'twitter:description', 'dc.description', 'dc:description', 'dcterms.description', 'dcterms:description'],
} as const;
