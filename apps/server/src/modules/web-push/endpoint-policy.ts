/**
 * Which push services the server sends to (docs/decisions/device-control.md "Push switch"): a subscription's
 * endpoint is a URL the browser chose, and the server will POST to it, so only the origins of the browsers' push
 * services are accepted — anything else (an internal address, a metadata service) is refused at registration.
 * The default list is the contracts' DEFAULT_WEB_PUSH_ORIGINS; WEB_PUSH_ORIGINS replaces it (tests point it at a local
 * push service).
 */

/**
 * True when `endpoint`'s origin is one of `allowed` (exact origins, or `scheme://*.domain` for any subdomain).
 * Never throws: a malformed endpoint is not allowed.
 */
export function isAllowedPushEndpoint(endpoint: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  return allowed.some((origin) => {
    const wildcard = /^(https?):\/\/\*\.(.+)$/.exec(origin);
    if (!wildcard) return url.origin === origin;
    return url.protocol === `${wildcard[1]}:` && url.hostname.endsWith(`.${wildcard[2]}`) && !url.port;
  });
}
