// The words and shapes of bot walls, as data: what challenge, captcha and block pages say and how they are
// built, taken from their public structure (a page title saying "one moment", a human check phrased in the
// visitor's language, a block page quoting a reference id, a captcha widget's frame or site key). No rule
// names a site or vendor; each entry describes a kind of page. Phrases are matched on lower-cased text
// with whitespace collapsed, so they are written in lower case.

/**
 * Phrases that only a bot check or a bot block says: asking the visitor to prove they are human, saying
 * their browser is being checked, or that their traffic looked automated. Strong evidence on a short page.
 */
export const BOT_CHECK_PHRASES: readonly string[] = [
  // English
  'verify you are human',
  'verify that you are human',
  'verifying you are human',
  'verify you are a human',
  'confirm you are human',
  'confirm that you are human',
  'prove you are human',
  'are you a robot',
  'are you a human',
  "i'm not a robot",
  'i am not a robot',
  'not a robot',
  'human verification',
  'checking your browser',
  'checking if the site connection is secure',
  'enable javascript and cookies to continue',
  'please enable cookies',
  'unusual traffic',
  'unusual activity from your',
  'automated requests',
  'automated queries',
  'automated access',
  'automated (bot) activity',
  'bot activity',
  'suspected bot',
  'press & hold',
  'press and hold',
  'complete the security check',
  'completing the captcha',
  'complete the captcha',
  'solve the captcha',
  'pardon our interruption',
  'request blocked',
  'request was blocked',
  'request has been blocked',
  'you have been blocked',
  'you are blocked',
  'this request was blocked by',
  'blocked by our security',
  'security service to protect itself',
  'ddos protection',
  // German
  'bestätigen sie, dass sie ein mensch sind',
  'sind sie ein roboter',
  'ich bin kein roboter',
  'ungewöhnlichen datenverkehr',
  'ihr browser wird überprüft',
  'anfrage blockiert',
  'anfrage wurde blockiert',
  // French
  'vérifiez que vous êtes humain',
  'vérifier que vous êtes humain',
  'vérification que vous êtes un humain',
  'êtes-vous un robot',
  'je ne suis pas un robot',
  'trafic inhabituel',
  'vérification de votre navigateur',
  'requête bloquée',
  'demande bloquée',
  // Spanish
  'verifica que eres humano',
  'verifique que es humano',
  'verificando que eres un humano',
  'eres un robot',
  'no soy un robot',
  'tráfico inusual',
  'comprobando tu navegador',
  'comprobando su navegador',
  'solicitud bloqueada',
  // Italian
  'verifica di essere umano',
  'verifica che sei umano',
  'sei un robot',
  'non sono un robot',
  'traffico insolito',
  'richiesta bloccata',
  // Portuguese
  'verifique se você é humano',
  'confirme que você é humano',
  'você é um robô',
  'não sou um robô',
  'tráfego incomum',
  'solicitação bloqueada',
  // Dutch
  'controleren of u een mens bent',
  'bent u een robot',
  'ik ben geen robot',
  'ongebruikelijk verkeer',
  // Polish, Turkish, Russian
  'nie jestem robotem',
  'czy jesteś robotem',
  'robot değilim',
  'подтвердите, что вы человек',
  'я не робот',
  'необычный трафик',
  // Japanese, Chinese, Korean
  'ロボットではありません',
  'ロボットではないことを確認',
  '我不是机器人',
  '验证您是人类',
  '请求被阻止',
  '로봇이 아닙니다',
];

/**
 * Titles of interstitial, challenge and bot-block pages ("Just a moment…", "Attention required", "Are you a
 * robot?"), matched at the start of the title, short titles only. A title alone proves nothing (an article
 * may be titled so): it counts with another signal.
 */
export const WALL_TITLES: readonly RegExp[] = [
  /^just a (moment|second)\b/,
  /^one moment,? please\b/,
  /^please wait\b/,
  /^attention required\b/,
  /^(request|you have been|you are|you've been) blocked\b/,
  /^(are you a (robot|human)|human verification|security (check|verification)|bot (check|verification|protection))\b/,
  /^(verify|verifying|confirm) (you are|that you are|you're) (a )?human\b/,
  /^(ddos|bot) protection\b/,
  /^(un instant|einen moment|un momento|um momento|een moment|chwileczkę)\b/,
];

/**
 * Titles of a refusal ("Access denied", "Too many requests"): a site's own 403 page is titled so too, so
 * they weigh like the refusal words below.
 */
export const DENIED_TITLES: readonly RegExp[] = [
  /^access (denied|blocked|to this page has been denied)\b/,
  /^(error )?429\b|^too many requests\b/,
  /^(zugriff verweigert|accès refusé|acceso denegado|accesso negato|acesso negado|toegang geweigerd|dostęp zabroniony|erişim engellendi)\b/,
  /^(доступ (запрещ[её]н|закрыт)|アクセスが拒否されました|访问被拒绝|접근이 거부되었습니다)/,
];

/** Words of an ordinary refusal: weak alone (a site's own 403 says them too), stronger with a reference id. */
export const ACCESS_DENIED_PHRASES: readonly string[] = [
  'access denied',
  'access to this page has been denied',
  'access blocked',
  "you don't have permission to access",
  'you do not have permission to access',
  'not authorized to access',
  'too many requests',
  'rate limit',
  'zugriff verweigert',
  'accès refusé',
  'acceso denegado',
  'accesso negato',
  'acesso negado',
  'toegang geweigerd',
  'dostęp zabroniony',
  'erişim engellendi',
  'доступ запрещен',
  'доступ запрещён',
  'アクセスが拒否されました',
  '访问被拒绝',
];

/**
 * The reference a block page quotes for its support desk: "Reference #18.2f1c…", "Ray ID: 7d3…",
 * "Incident ID: …", "Request ID: …", "Support ID: …" followed by a token with digits.
 */
export const REFERENCE_ID =
  /\b(reference|ref|ray|incident|request|support|event|block|error)\s*(id|#|number|no\.?|code)?\s*[:#]\s*#?(?=[0-9a-z.-]*\d)[0-9a-z][0-9a-z.-]{7,}/i;

/** Where a captcha or challenge widget or script is served from: the path or host names one. */
export const CHALLENGE_RESOURCE = /captcha|challenge|turnstile|bot[-_]?(detect|protect|manag)/i;

/** Ids, classes and form actions of challenge and captcha containers ("challenge-form", "g-recaptcha"). */
export const CHALLENGE_MARKUP = /captcha|challenge|turnstile|human[-_]?(check|verif)|bot[-_]?(check|detect|protect)/i;

/** A noscript that tells the visitor to turn on JavaScript or cookies to go on (an interstitial's fallback). */
export const JS_REQUIRED =
  /(enable|turn on|activate|allow|aktivieren|activer|habilita|attiva|ative)\b.{0,40}\b(javascript|cookies|js)\b|\b(javascript|cookies)\b.{0,40}\b(required|enabled|disabled|erforderlich|requis|necesario)/i;

/** Response headers by which a CDN or bot manager says it answered with a challenge instead of the page. */
export const CHALLENGE_HEADER_NAME = /mitigat|challenge|captcha|bot[-_]?(detect|manag|protect)/i;
export const CHALLENGE_HEADER_VALUE = /^(challenge|captcha|block|blocked|deny|denied|js[-_]?challenge)$/i;
