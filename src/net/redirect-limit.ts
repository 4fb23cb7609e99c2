// url.status's redirect limit, on its own so the tool's schema can name it without loading the HTTP client.
export const MAX_REDIRECTS = 10;
