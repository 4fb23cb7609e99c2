// Vocabulary as data: the words in class and id names that say what a block is. Each entry is a word or a
// small pattern of one (a regular-expression fragment: "comments?" is comment or comments). The rules that
// read names build their tests from these lists (nameTest); adding a word is a change here, not in a rule.

/** Comment threads and forms to comment. */
export const COMMENT_WORDS = [
  'comments?',
  'commentlist',
  'comment-?(area|list|form|respond|section|thread|s-?block)',
  'respond',
  'replies',
  'disqus',
  'discussion',
  'kommentare?',
  'reactions',
  'talkback',
  'responses',
];

/** Site furniture that ends up inside the article container. */
export const FURNITURE_WORDS = [
  // sharing
  'share',
  'sharing',
  'sharedaddy',
  'social',
  'socials',
  'shariff',
  'addthis',
  'sociable',
  // onward links
  'related',
  'relatedposts',
  'yarpp',
  'jp-relatedposts',
  'more-stories',
  'read-?more',
  'more-?links?',
  'further-?reading',
  'recommended',
  'recirc',
  'outbrain',
  'taboola',
  // sign-ups
  'newsletter',
  'subscribe',
  'subscription',
  'signup',
  // navigation
  'breadcrumbs?',
  'pagination',
  'pager',
  'post-?nav',
  'nav-?links',
  'navigation',
  // about the author, sidebars
  'author-?(bio|box|info)',
  'about-?author',
  'sidebar',
  'sidebox',
  // adverts
  'advert',
  'advertisement',
  'ads?',
  'ad-?(slot|unit|container)',
  'sponsor(ed)?',
  'promo',
  'teaser-?list',
  // metadata lines
  'tags?',
  'tag-?(list|cloud)',
  'tagcloud',
  'categories',
  'post-?(meta|metadata|tags|footer|categories)',
  'entry-?(meta|metadata|footer|utility)',
  'byline',
  'dateline',
  'timestamp',
  'credits?',
  'photo-?credit',
  'copyright',
  'rating',
  'toolbar',
  'masthead',
  'skip',
  'footer',
  'legal',
  // overlays
  'cookie',
  'consent',
  'popup',
  'modal',
  'overlay',
  'login',
  'signin',
  'register',
];

/** Cookie and consent banners (removed before anything else, when small). */
export const COOKIE_BANNER_WORDS = [
  'cookie',
  'cookies',
  'consent',
  'gdpr',
  'ccpa',
  'onetrust',
  'cookiebot',
  'didomi',
  'truste',
  'cmp',
  'cc-window',
  'cc-banner',
  'privacy-banner',
];

/**
 * Sidebar and footer widgets of WordPress ("widget widget_text", "textwidget", "widgettitle"). Not a bare
 * "widget" (Blogger's main column is "widget Blog") nor "…-widget-…" (page builders name every content
 * block "builder-widget-…").
 */
export const WIDGET_WORDS = ['textwidget', 'widgettitle', 'widget_[\\w-]+'];

/** Names of advert slots; sites also give them to the block around the article that hosts the slots. */
export const ADVERT_WORDS = ['advert', 'advertisement', 'ads?', 'ad-?(slot|unit|container)'];

/** "readmore", "read-more", "js_readmore": a name sites give both to links onward and to text shown in part. */
export const READ_MORE_WORDS = ['read-?more'];

/** The article's own text block ("post-body", "entry-content", "article-text"), whatever else its names say: the kinds… */
export const CONTENT_KINDS = ['post', 'entry', 'article'];
/** …and the parts. */
export const CONTENT_PARTS = ['body', 'content', 'text'];

/** schema.org types of a JSON-LD block that describes the page's article (matched anywhere in the type's name). */
export const ARTICLE_SCHEMA_TYPES = [
  'Article',
  'BlogPosting',
  'Report',
  'WebPage',
  'Review',
  'Recipe',
  'NewsArticle',
  'ScholarlyArticle',
  'Posting',
  'CreativeWork',
];

/**
 * A test for any of `words` as a whole part of a class/id list: after the start, a space, "_" or "-", and
 * before the end, a space, "_", "-" or (with `digits`) a number ("ad-1").
 */
export function nameTest(words: readonly string[], { digits = true }: { digits?: boolean } = {}): RegExp {
  return new RegExp(`(^|[\\s_-])(${words.join('|')})([\\s_-]|${digits ? '\\d|' : ''}$)`, 'i');
}
