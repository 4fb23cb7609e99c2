// Vocabulary as data: the words of short lines and paragraphs that are the site's, not the article's
// (credits, pitches, notices, prompts, labels), per language, for the boilerplate-text and promos rules.
// Each entry is a phrase or a small regular-expression fragment of one, matched case aside unless a table
// says otherwise. A table is keyed by what its phrases say; the rule keeps the frame around them: where in
// the line they stand and what follows. "multi" holds phrases whose words come from several languages at
// once (one pattern for all); "symbols" holds marks that belong to no language.
import type { WordTable } from './compile.js';

/** Labels opening a picture's credit line: "Foto: …", "Bild: …", "Credit: …", "© Agency", "(c) Name". */
export const CREDIT_LINE_LABELS: WordTable = {
  en: ['photos?', 'photograph(y)?', 'images?', 'pictures?', 'credits?', 'copyright'],
  de: ['fotos?', 'bild(er)?', 'bildquelle', 'quelle', 'titelbild', 'beitragsbild'],
  fr: ['crédits?( photos?)?'],
  es: ['fuente'],
  pt: ['fonte'],
  pl: ['źródło'],
  symbols: ['©', '\\(c\\)'],
};

/** How a picture's credit opens in English: "Photo by …", "Header image courtesy of …". */
export const CREDIT_LINE_OPENINGS: WordTable = {
  en: ['((featured|header|cover|title|hero|top) )?(photo(graph)?|image|picture)s? (by|courtesy of|credit)'],
};

/** Labels a caption's credit follows: "© …", "Foto: …" near the end of a line. */
export const CREDIT_MARKS: WordTable = {
  symbols: ['©', '\\(c\\)'],
  de: ['foto:', 'bild:'],
  en: ['photo:'],
};

/** A copyright line opens with these: "© 2021 …", "Copyright …", "(c) 2021". */
export const COPYRIGHT_OPENINGS: WordTable = {
  symbols: ['©', '\\(c\\) ?\\d{4}'],
  en: ['copyright\\b'],
};

/** Logged in (or signing in), said around commenting: a login wall for comments. */
export const LOGIN_WORDS: WordTable = {
  de: ['eingeloggt', 'angemeldet', 'registriert'],
  en: ['logged in', 'log in', 'sign in'],
  fr: ['connecté'],
  pl: ['zalogowany'],
};
/** The same, after the comment word ("comment … logged in"): "log in" and "sign in" only open such a line. */
export const LOGIN_AFTER_WORDS: WordTable = {
  de: ['eingeloggt', 'angemeldet', 'registriert'],
  en: ['logged in'],
  pl: ['zalogowany'],
};
/** Commenting, with a login word before it. */
export const LOGIN_COMMENT_WORDS: WordTable = {
  de: ['kommentar'],
  en: ['comment'],
  pl: ['komentarz'],
  fr: ['commenter'],
};
/** Commenting (with any ending), with a login word after it. */
export const LOGIN_COMMENT_STEMS: WordTable = {
  de: ['kommentar'],
  en: ['comment'],
  pl: ['komentarz'],
};

/** The placeholder of an embed waiting for consent, as its line opens: "Externer Inhalt". */
export const EMBED_PLACEHOLDER_OPENINGS: WordTable = {
  de: ['externer inhalt'],
  en: ['external content'],
};
/** …and phrases of it anywhere in the line: "Inhalte von YouTube laden", "Load external content". */
export const EMBED_PLACEHOLDER_PHRASES: WordTable = {
  de: ['inhalt(e)? von .{1,60} (zu )?laden'],
  en: ['load (the )?(external )?content'],
};

/** A "follow us on …" pitch: the social networks are in notices.ts (SOCIAL_NETWORKS). */
export const FOLLOW_US = {
  /** "follow us on", "follow Jane Doe on": the words around the one followed, before the network. */
  en: { before: 'follow', us: 'us', after: 'on' },
  /** "folge uns auf": no network named after it. */
  de: { before: 'folge', us: 'uns', after: 'auf' },
} as const;

/**
 * Phrases that make a short line the site's pitch or notice wherever they stand in it, one table per kind;
 * each table is one test, matched as whole words.
 */
export const LINE_PHRASES: Readonly<Record<string, WordTable>> = {
  /** App pitches and "get the latest news". */
  apps: { en: ['download (our|the) app', 'get the latest news'] },
  /** Newsletter pitches. */
  newsletter: { en: ['newsletter', 'subscribe to', 'sign(ing)? up (to|for)'], de: ['abonnieren sie', 'jetzt abonnieren'] },
  /** Affiliate disclosures. */
  affiliate: {
    en: ['affiliate', 'receive (a )?(compensation|commission)', 'earn (a )?commission'],
    de: ['provision vom händler', 'partnerlinks?', 'werbelinks?'],
  },
  /** Support pitches. */
  support: { en: ['support (our|us|independent)', 'consider supporting'], de: ['unterstützen sie (uns|unsere)'] },
  /** Advertising disclosures. */
  advertising: {
    de: ['(enthält|beinhaltet) (unbezahlte )?(werbung|affiliate|anzeigen|werbelinks)'],
    en: ['this (post|article|page) (may )?contains? (affiliate|advertising|sponsored)'],
  },
  /** App and channel pitches. */
  channels: {
    en: ['download (our|the) ([\\w-]+ ){0,2}apps?'],
    multi: ['(our|unseren?|nuestro|notre) (canal de |chaîne |kanal (auf|bei) )?(youtube|instagram|tiktok|telegram|whatsapp)'],
  },
  /** Download links for a print version, how long an embedded video stays online, a table's "no liability" disclaimer. */
  availability: {
    de: ['als pdf herunterladen', '(alle )?angaben ohne gewähr'],
    en: ['download (as|the) pdf'],
    multi: ['(video )?(verfügbar|available|disponible) (bis|until|jusqu)'],
  },
  /** The site's licence notice. */
  licence: {
    en: ['unless otherwise (noted|stated|indicated)', 'licensed under (a |the )?creative commons'],
    de: ['sofern nicht anders (angegeben|ausgewiesen|vermerkt)'],
  },
  /** Appeals for money or membership and letters-to-the-editor prompts that close an article. */
  appeals: {
    en: [
      'we need your (help|support)',
      'we rely on (your|readers)',
      'help us (continue|keep)',
      'become a (member|supporter|subscriber|patron)',
      '(support|fund) (local|independent|quality) (news|journalism)',
      'donate (now|today)',
      'make a (donation|contribution)',
      'submit a letter',
      'subscribe now',
    ],
    de: [
      '(brauchen|benötigen) wir (deine|eure|ihre) unterstützung',
      'unterstütze(n sie)? (uns|unser)',
      'jetzt spenden',
      'jetzt (mitglied|abonnent|abonnentin) werden',
      'jede (kleine )?spende',
    ],
    es: ['hazte (miembro|socio)'],
  },
  /** A blog platform's like counter. */
  likes: { de: ['bloggern gefällt das'], en: ['bloggers like this'] },
  /** Pinterest buttons left as text. */
  pinterest: {
    de: ['bei pinterest (speichern|merken)', 'auf pinterest (pinnen|merken)'],
    en: ['save (it )?(to|on) pinterest', 'pin (it|this)( on pinterest)?'],
  },
  /** Prompts to comment. */
  inComments: { de: ['in den kommentaren'], en: ['in the comments'], fr: ['dans les commentaires'], es: ['en los comentarios'] },
  /** Thanks to the reader: "Thank you for your support!". */
  thanks: {
    en: ['thank(s| you) for (your support|supporting|reading)'],
    de: ['danke für (deine|ihre|eure) unterstützung'],
    es: ['gracias por (tu|su) apoyo'],
    fr: ['merci (pour|de) votre soutien'],
  },
  /** Subscription terms: "Cancel anytime". */
  cancel: {
    en: ['cancel(a|e)? (at )?any ?time'],
    es: ['cancela cuando quieras'],
    de: ['jederzeit kündbar'],
    fr: ['résiliable à tout moment', 'sans engagement'],
  },
  /** Letters-to-the-editor prompts. */
  letters: { en: ['letters? to the editor'], de: ['leserbrief(e)? (schreiben|an die redaktion)'], es: ['cartas? al director'] },
  /** "Sign up here". */
  signUp: {
    en: ['sign up (here|now|today)'],
    de: ['(melde|registriere) dich (jetzt |hier )?an'],
    es: ['inscr[ií]bete (aquí|ahora)'],
    pl: ['zapraszamy (też |również )?do (subskrypcji|słuchania|oglądania)'],
  },
  /** A shop's notice that an item went into the basket. */
  basket: {
    de: ['(wurde|wurden) erfolgreich (hinzugefügt|in den warenkorb)'],
    en: ['(successfully )?added to (your )?(cart|basket|wish ?list)'],
    fr: ['ajouté au panier'],
    es: ['añadido al carrito'],
  },
};

/** Rules for commenting. */
export const COMMENT_RULES: WordTable = {
  en: ['community (guidelines|standards)'],
  de: ['netiquette', 'kommentarrichtlinien', 'diskussionsregeln'],
};
/** A listing's "1 to 10 of 19" counter: the words between the numbers. */
export const LISTING_COUNTER = {
  to: ['bis', 'to', '-', '–'],
  of: ['von', 'of', 'de'],
  total: ['insgesamt ', 'total '],
} as const;

/** "Did you like this article?" pitches (matched from a word start, whatever follows). */
export const LIKED_IT: WordTable = {
  de: [
    '(hat|gefällt|gefiel) (ihnen|dir|euch) (der|dieser|unser|unsere) (artikel|beitrag|magazin|blog)',
    '(hat|hätte) (ihnen|dir|euch) (der|dieser) (artikel|beitrag) gefallen',
  ],
  en: ['did you (like|enjoy) this (article|story|post)', 'enjoyed this (article|story|post)'],
};

/** Pointers to the site's shop and sign-up offers (letters of any script: matched with Unicode classes). */
export const SHOP_POINTERS: WordTable = {
  de: [
    'besuchen sie unseren ([\\p{L}-]+ )?(shop|online-?shop|fan-?shop)',
    'zu unserem (online-?)?shop',
    '(erhalten|sichern) sie (sich )?exklusive (angebote|vorteile)',
  ],
  en: ['visit our (online |web ?)?(shop|store)'],
};

/** Share, print and like bars left as text: what may follow the share label (SHARE_LABELS) on its line. */
export const SHARE_OBJECTS = ['on', 'auf', 'via', 'this', 'diesen artikel', 'artikel', 'beitrag', 'rezept', 'page', 'seite'];

/** Action buttons left as text: "Tipp favorisieren", "Rezept merken", "Save article": the thing acted on… */
export const ACTION_OBJECTS: WordTable = {
  de: ['tipp', 'rezept', 'artikel', 'beitrag', 'seite'],
  en: ['recipe', 'article', 'post', 'page', 'story'],
};
/** …and the action, after it (German) or… */
export const ACTION_VERBS: WordTable = {
  de: ['drucken', 'teilen', 'merken', 'favorisieren', 'speichern', 'versenden'],
  en: ['print', 'share', 'save', 'bookmark', 'email'],
};
/** …before it (English): "Print this recipe". */
export const ACTION_VERBS_BEFORE = ['print', 'share', 'save', 'bookmark', 'email'];
export const ACTION_THIS = 'this';
export const ACTION_OBJECTS_AFTER = ['tip', 'recipe', 'article', 'post', 'page', 'story'];

/** A pointer to the next page of a series: "… weiter zu „Part two“", "Continue to part 2". */
export const NEXT_PART: WordTable = { de: ['weiter zu'], en: ['continue to'], fr: ['suite :'], es: ['siguiente:'] };

/** Disclaimers that the article is the author's opinion (matched from a word start, whatever follows). */
export const OPINION_DISCLAIMERS: WordTable = {
  de: ['gibt die meinung (des|der) autor(s|in)? wieder'],
  fr: ['n.engagent que leurs auteurs'],
  en: ['reflects? the (views|opinions?) of the author'],
};

/** "Posted on … and filed under …": the words before the date… */
export const POST_FILED_WORDS: WordTable = { de: ['veröffentlicht', 'abgelegt', 'erstellt'], en: ['posted', 'filed'] };
/** …and the word before the categories. */
export const POST_FILED_UNDER: WordTable = { de: ['unter'], en: ['under'] };

/** Counters that are a whole line with a number: "Aufrufe: 1.234", "Views 56". */
export const COUNTER_LABELS: WordTable = {
  de: ['aufrufe', 'gelesen', 'kommentare insgesamt'],
  en: ['views', 'hits', 'reads', 'comments'],
};

/** A rating widget with no ratings: "(Noch keine Bewertungen)", "No reviews yet". */
export const NO_RATINGS = {
  yet: ['noch '],
  no: ['keine', 'no'],
  what: ['bewertungen', 'ratings', 'reviews'],
  after: [' yet'],
} as const;

/** A picture widget's buttons: "Bild anzeigen", "Photos enlarge"; the picture word with its plural ending… */
export const PICTURE_WIDGET_NOUNS = ['bild', 'foto', 'image', 'photo'];
export const PICTURE_WIDGET_PLURALS = ['er', 's'];
/** …and the action. */
export const PICTURE_WIDGET_ACTIONS: WordTable = { de: ['anzeigen', 'schließen', 'vergrößern'], en: ['enlarge', 'zoom'] };

/** A metadata label whose value sits in another element ("Von:", "Release Date:"): alone, it says nothing. */
export const VALUE_LABELS: WordTable = {
  de: ['von', 'autor(in)?', 'veröffentlicht', 'veröffentlichung', 'erscheinungsdatum', 'datum', 'originalartikel', 'quellenangaben?'],
  en: ['by', 'author', 'release date', 'publication date', 'published', 'date', 'original article', 'sources?'],
  es: ['por', 'fecha'],
  fr: ['par'],
};

/** Taxonomy lines: "Tags: a, b", "Category : Press Releases", "Kategorie: News": the label. */
export const TAXONOMY_LABELS: WordTable = {
  en: ['tags?', 'categor(y|ies)', 'filed under', 'posted in'],
  de: ['schlagw(ö|o)rter', 'stichw(ö|o)rter', 'kategorien?', 'rubrik', 'abgelegt unter'],
  fr: ['catégories?'],
  es: ['categorías?'],
};

/** Reading-time notes: "5 min read", "Lesezeit: 4 Minuten", "Ten tekst przeczytasz w mniej niż minutę". */
export const READING_TIME = {
  /** The unit after the number… */
  units: ['min\\.?', 'minutes?', 'minuten', 'minutos'],
  /** …then what is done in it ("5 min read"). */
  after: ['read', 'lesezeit', 'de lectura', 'de lecture'],
  /** The label before the number ("Lesezeit: 4"). */
  labels: ['lesezeit', 'reading time', 'temps de lecture', 'tiempo de lectura', 'czas czytania'],
  /** Polish "you will read it in …" anywhere in the line. */
  phrases: ['przeczytasz w'],
} as const;

/** How to cite the page, opening a line. */
export const CITATION_LABELS: WordTable = {
  en: ['suggested citation', 'cite (this|as)'],
  de: ['zitiervorschlag', 'zitierweise'],
  fr: ['citation sugg[ée]r[ée]e'],
  es: ['cómo citar'],
};

/** "Kennt ihr schon unseren …?": the site speaking of itself, as the line opens… */
export const KNOW_OUR_OPENINGS: WordTable = { de: ['(kennt ihr|kennen sie|kennst du) (schon|bereits) (unser|unsere|unseren)'] };
/** …or anywhere in it: "¿Ya sabías que … tenemos canal …?", "Did you know we have …". */
export const KNOW_OUR_PHRASES: WordTable = { es: ['(ya )?sabías que .{0,60}\\btenemos'], en: ['did you know (that )?we (have|offer)'] };

/** A permanent short link to the page ("Permalink https://…"): the label. */
export const PERMALINK_LABELS: WordTable = {
  en: ['permalink', 'short ?link', 'short url'],
  fr: ['permalien'],
  de: ['kurzlink'],
  es: ['enlace permanente'],
};
/** The same labels where only a link may follow (the promos rule): "short url" is not among them. */
export const PERMALINK_LINK_LABELS: WordTable = { en: ['permalink', 'short ?link'], fr: ['permalien'], de: ['kurzlink'], es: ['enlace permanente'] };

/** A toggle that shows or hides a box: "Quellen ausblenden", "Show more". */
export const TOGGLES: WordTable = {
  de: ['(quellen|sources|details|mehr|weniger|alle|text) (ausblenden|einblenden|anzeigen|verbergen|zeigen)'],
  en: ['(show|hide) (sources|details|more|less|all)'],
};

/** The newsroom named as the author ("Artikel Redaktion Example", "Online-Redaktion"): the labels before it… */
export const NEWSROOM_LABELS = ['artikel', 'beitrag', 'text', 'autor(in)?', 'von'];
/** …and the newsroom's word. */
export const NEWSROOM_WORDS = ['(online-?)?redaktion'];

/**
 * Disclosures told by phrases that only a site speaking of itself uses; they run longer than a line (a
 * disclosure paragraph). One test per entry, matched as whole words.
 */
export const DISCLOSURES: readonly WordTable[] = [
  { en: ['(we|i) (may )?(receive|earn|get|make) (a )?(small )?(compensation|commission|share of (the )?(sales|revenue))'] },
  { de: ['(wir|ich) (erhalten|bekommen) (ggf\\.|gegebenenfalls |eventuell )?(eine )?(kleine )?provision'] },
  { en: ['this (post|article|page) contains (references to products|affiliate links)', 'advertisers do not influence'] },
];

/**
 * A short note about the author closing an article: a name or a pronoun opens it (the pronouns here), then a
 * role or a career (AUTHOR_ROLES).
 */
export const AUTHOR_PRONOUNS: WordTable = { en: ['he', 'she', 'they'], de: ['er', 'sie'], fr: ['il', 'elle'], es: ['ella', 'él'] };
export const AUTHOR_ROLES: WordTable = {
  en: [
    '(is|was) (a|an|the)?\\s?([\\p{L}-]+\\s){0,3}(founder|co-?founder|editor|writer|journalist|reporter|author|columnist|correspondent|contributor|consultant|blogger|freelancer)\\b',
    '(has been|is) (writing|reporting|covering)\\b',
    'writes (about|for|on)\\b',
  ],
  de: [
    '(ist|war) (ein(e)? )?([\\p{L}-]+\\s){0,3}(gründer(in)?|gründungspartner(in)?|mitgründer(in)?|redakteur(in)?|autor(in)?|journalist(in)?|chefredakteur(in)?|herausgeber(in)?|blogger(in)?|volontär(in)?)\\b',
    'schreibt (seit|für|über)\\b',
    'studierte .{1,80}(bevor|danach|und arbeitet|und ist)\\b',
  ],
  multi: [
    '(es|est) (un |une |el |la )?(periodista|fundador(a)?|editor(a)?|redactor(a)?|escritor(a)?|journaliste|fondat(eur|rice)|rédact(eur|rice)|auteur|autrice)\\b',
  ],
};

/** Top-level domains of a site's domain standing alone as a line ("EXAMPLENEWS.COM"). */
export const STAMP_DOMAINS = ['com', 'net', 'org', 'info', 'news', 'de', 'at', 'ch', 'fr', 'es', 'it', 'pl', 'nl', 'co\\.uk'];

// The promos rule (promos.ts): "see also" pointers, widget prompts, pitches and the site's sections.

/**
 * Words of a "see also" label: "MIRA:", "PUEDES VER:", "Lesen Sie auch:", "À lire aussi :", "Czytaj także:",
 * "Read more:". The label is at most a few words and ends with a colon.
 */
export const POINTER_LABELS: WordTable = {
  en: ['(also |further )?(read|see|watch|listen)( (more|also|next|this|too))?', 'related( (story|article|post|coverage|reading))?', 'more( on this)?'],
  de: ['(lesen|lies|lest|sehen|schauen|hören) ?(sie|du)? (auch|mehr|weiter|dazu)', 'siehe auch', 'auch interessant', 'mehr (zum thema|dazu)'],
  es: ['(puedes |puede )?(ver|mira|mire|lea|lee|leer|escucha)( (también|además|más))?', '(te|le) puede interesar', 'también (lee|lea|puedes leer)'],
  fr: ['(à )?(lire|voir) (aussi|également)'],
  it: ['leggi anche|guarda anche|vedi anche'],
  pt: ['(leia|veja) (também|mais)'],
  nl: ['lees (ook|meer)'],
  pl: ['(czytaj|zobacz) (także|też|również|więcej)'],
};

/** Feedback, share and review widgets' prompts opening a short line: "War der Artikel nützlich?", "Share your experience". */
export const PROMPT_OPENINGS: readonly WordTable[] = [
  { de: ['(war|ist) (der|dieser|die|diese) (artikel|beitrag|seite|text|information) (nützlich|hilfreich)'] },
  { en: ['(was|is|did you find) (this|the) (article|page|post|story|information) (helpful|useful)'] },
  { es: ['(¿\\s*)?(te|le) (ha )?(resultó|fue|ha sido|pareció) útil'], fr: ['(cet article|cette page) (vous )?a-t-(il|elle) été utile'] },
  { de: ['(möchten sie|möchtest du|willst du|wollen sie) (den|diesen) (artikel|beitrag|text) (teilen|empfehlen)'] },
  { en: ['(would you like to|want to) share this (article|post|story)'] },
  {
    de: ['(bitte )?(teilen sie|teile|teilt) (uns )?(ihre|deine|eure) (erfahrungen?|meinung)'],
    en: ['(please )?(share|tell us) your (experience|thoughts|opinion)'],
  },
];
/** The site's shop offers: "Empfehlungen aus dem …-Shop": what is offered… */
export const SHOP_OFFERS: WordTable = { de: ['empfehlungen', 'produkte', 'angebote'], en: ['recommendations', 'products', 'offers'] };
/** …from where… */
export const SHOP_FROM: WordTable = { de: ['aus dem', 'aus unserem'], en: ['from the', 'from our', 'in our'] };
/** …and the shop's word. */
export const SHOP_WORDS = ['shop', 'store'];
/** The placeholder a blocked widget leaves: "Besuchen Sie die Webseite, um dieses Element …". */
export const BLOCKED_WIDGET = {
  visit: ['besuchen sie', 'visit'],
  the: ['die', 'the'],
  site: ['webseite', 'website', 'seite', 'site'],
  to: ['um', 'to'],
  this: ['dieses', 'this'],
  item: ['element', 'content', 'item'],
} as const;
/** An advert's label heading its own line: "ANZEIGE - Heute mal ausgehen?", "Advertisement: …". */
export const ADVERT_LINE_LABELS: WordTable = { de: ['anzeige', 'werbung'], en: ['advertisement', 'sponsored'], es: ['publicidad'], fr: ['publicité'] };

/** Social networks followed in a pitch that opens a paragraph, per language of the pitch (English and German matched with their case). */
export const FOLLOW_NETWORKS = {
  en: ['Twitter', 'X', 'Facebook', 'Instagram', 'LinkedIn', 'YouTube', 'TikTok', 'Threads', 'Mastodon'],
  de: ['Twitter', 'X', 'Facebook', 'Instagram', 'LinkedIn', 'YouTube', 'TikTok'],
  es: ['twitter', 'facebook', 'instagram', 'youtube', 'tiktok'],
  fr: ['twitter', 'facebook', 'instagram'],
} as const;
/** The words of those pitches around the one followed: "Follow us on", "Folgen Sie uns auf", "Síguenos en", "Suivez-nous sur". */
export const FOLLOW_PITCH = {
  en: { follow: ['[Ff]ollow'], us: 'us', on: 'on' },
  de: { follow: ['Folge', 'Folgen Sie', 'Folgt'], us: 'uns', on: '(auf|bei)' },
  es: { follow: ['síguenos', 'sigue a [\\w.]+( [\\w.]+)?'], on: 'en' },
  fr: { follow: ['suivez(-nous| [\\w.]+)'], on: 'sur' },
} as const;

/** Pitches of the site and its own disclaimers, one test per entry (opening a paragraph, or anywhere in it). */
export const PITCH_OPENINGS: readonly WordTable[] = [
  // "Did you like our (climbing) magazine?": the site speaking of itself.
  {
    de: ['(gefällt|gefiel) (ihnen|dir|euch) (unser|unsere) ([\\p{L}-]+ )?[\\p{L}-]*(magazin|blog|portal|zeitung|podcast|newsletter|angebot|website|seite)'],
  },
  { en: ['(do you|did you) (like|enjoy) (our|this) ([\\p{L}-]+ )?[\\p{L}-]*(magazine|blog|site|website|newsletter|podcast|journalism)'] },
];
/** Subscription perks and "already a subscriber? log in" lines of a paywall. */
export const PAYWALL_PERKS: readonly string[] = [
  '\\b(first-time|new) subscribers (also )?(receive|get)\\b',
  "\\bif you('re| are) (already )?(a )?(subscriber|member)\\b.{0,80}\\blog ?in\\b",
];
/** A site's history as a pitch: "We have been doing journalism for 106 years". */
export const JOURNALISM_SINCE: WordTable = {
  es: ['hacemos periodismo desde hace \\d+'],
  en: ["we('ve| have) been (doing|practicing|practising|producing) journalism (for|since)"],
  de: ['wir machen (seit \\d+ jahren )?journalismus'],
};
/** A pitch to become the site's customer: "not a customer yet" and "with us" in one paragraph. */
export const NOT_YET_CUSTOMER: WordTable = { de: ['noch kein(e)? (kunde|kundin|mitglied)'], en: ['not (yet )?(already )?an? (customer|member)'] };
export const WITH_US: WordTable = { de: ['bei uns', 'wir'], en: ['with us', 'we'] };
/** A blogger's welcome closing the post: "I'm Amy and I'm so glad you've stopped by!", "My blog is full of …". */
export const BLOGGER_WELCOME: WordTable = {
  en: [
    "(hi,? |hello,? )?(i'm|i am) \\p{Lu}\\p{L}+\\b.{0,40}\\b(glad|happy) (that )?you('ve| have)? (stopped by|found|are here|dropped by)",
    '(my|this|our) blog is (full of|all about|where)',
  ],
};
/** A portal's disclaimer for what its contributors or readers post. */
export const NOT_RESPONSIBLE_EN = {
  for: '(is|are) not responsible for (the )?(opinions|views|statements|content)',
  whose: '(contributors|readers|users|commenters|third parties)',
} as const;
export const NOT_RESPONSIBLE: WordTable = {
  es: ['(no se hace|no nos hacemos) responsable(s)? de (las )?(opiniones|comentarios)\\b'],
  de: ['(übernimmt|übernehmen) keine (verantwortung|haftung) für (die )?(meinungen|kommentare|beiträge) (der|von) (nutzer|leser|lesern|nutzern)'],
};
/** The placeholder of an embed waiting for consent: "… ohne dein Einverständnis keine Verbindung zu … her". */
export const WITHOUT_CONSENT: WordTable = {
  de: ['ohne (dein|ihr|euer) einverständnis'],
  en: ['without your consent'],
  fr: ['sans votre consentement'],
  es: ['sin (tu|su) consentimiento'],
};
export const CONSENT_CONNECT = ['verbindung', 'connection', 'connect', 'laden', 'load', 'charg', 'cargar', 'conexión'];

/** A heading over the site's description of itself: "Über das Presseportal www.example.de", "À propos de notre magazine". */
export const ABOUT_WORDS: WordTable = { de: ['über'], en: ['about'], fr: ['à propos( de)?'], es: ['acerca de', 'sobre'], pl: ['o'] };
/** Top-level domains of the site named in such a heading. */
export const ABOUT_DOMAINS = ['de', 'at', 'ch', 'com', 'org', 'net', 'info', 'fr', 'es', 'it', 'pl', 'nl', 'eu', 'co\\.uk'];
/** "our"/"this", the site said as its own. */
export const ABOUT_OWN: WordTable = {
  de: ['unser(e|em|en)?', 'dieses', 'diese'],
  en: ['our', 'this'],
  fr: ['notre', 'ce'],
  es: ['nuestro', 'nuestra', 'este', 'esta'],
};
/** Words for a site. */
export const SITE_NOUNS: WordTable = {
  en: ['portal', 'website', 'site', 'blog', 'magazine', 'newspaper', 'platform', 'journal'],
  de: ['webseite', 'seite', 'magazin', 'zeitung', 'plattform'],
  es: ['sitio', 'revista', 'periódico'],
};

/** A heading over the site's other audio and video on the subject: "Videos zum Thema", "Related videos". */
export const RELATED_MEDIA_HEADINGS: WordTable = {
  multi: [
    '(more |related |other )?(audios?|videos?|vidéos|podcasts?)( (and|und|et|y|e) (audios?|videos?|vidéos|podcasts?))? (on|about|sur|zum|sobre|sul) (this|the|le|el|dem)? ?(same )?(topic|subject|sujet|thema|tema)',
    '(more|related|other|weitere|ähnliche|autres|más|otros) (audios?|videos?|vidéos|podcasts?)',
  ],
};
