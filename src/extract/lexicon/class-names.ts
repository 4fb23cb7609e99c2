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
 * A test for any of `words` as a whole part of a class/id list: after the start, a space, "_" or "-", and
 * before the end, a space, "_", "-" or (with `digits`) a number ("ad-1").
 */
export function nameTest(words: readonly string[], { digits = true }: { digits?: boolean } = {}): RegExp {
  return new RegExp(`(^|[\\s_-])(${words.join('|')})([\\s_-]|${digits ? '\\d|' : ''}$)`, 'i');
}
