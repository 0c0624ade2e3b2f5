import { errorKeys, type TraderLookup } from '@protocol/contracts';
import { AppError } from '../../platform/errors.ts';

/**
 * AADE's VAT-number registry (RgWsPublic2, glossary 'AADE VAT-number lookup'): a SOAP 1.2 call of
 * `rgWsPublic2AfmMethod` with a WS-Security UsernameToken (the company's special credentials).
 */

export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const WSSE_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
export const SERVICE_NS = 'http://rgwspublic2/RgWsPublic2Service';
export const TYPES_NS = 'http://rgwspublic2/RgWsPublic2';

export interface RegistryCredentials {
  username: string;
  password: string;
}

export interface RegistryRequest {
  /** The caller's ΑΦΜ (the company's); may be empty: the service then uses the token's. */
  calledBy: string | null;
  /** The ΑΦΜ asked about. */
  calledFor: string;
}

/** How each error_code of the service reaches the user: status and catalog key. */
const ERRORS: [RegExp, number, string][] = [
  [/^RG_WS_PUBLIC_WRONG_AFM$/, 400, errorKeys.registryWrongAfm],
  [/^RG_WS_PUBLIC_(EPIT_NF|AFM_CALLED_FOR_NOT_FOUND)$/, 404, errorKeys.registryNotFound],
  [/^RG_WS_PUBLIC_(TOKEN_|TAXPAYER_NOT_AUTHORIZED|AFM_CALLED_BY_)/, 422, errorKeys.registryNotRegistered],
  [
    /^RG_WS_PUBLIC_(MAX_DAILY_USERNAME_CALLS_EXCEEDED|MONTHLY_LIMIT_EXCEEDED|FAILURES_TOLERATED_EXCEEDED)$/,
    429,
    errorKeys.registryDailyLimit,
  ],
];

/** The service is down, slow or answered something unreadable. */
export const registryUnavailable = (cause?: unknown) =>
  new AppError(424, errorKeys.registryUnavailable, {}, undefined, cause);

export function registryError(code: string, description: string): AppError {
  for (const [pattern, status, key] of ERRORS) {
    if (pattern.test(code))
      return new AppError(status, key, {}, undefined, new Error(`${code}: ${description}`));
  }
  return registryUnavailable(new Error(`${code}: ${description}`));
}

export const escapeXml = (value: string) =>
  value.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string,
  );

const unescapeXml = (value: string) =>
  value
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The request envelope. */
export function requestEnvelope(credentials: RegistryCredentials, request: RegistryRequest): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<env:Envelope xmlns:env="${SOAP12_NS}" xmlns:ns1="${WSSE_NS}" xmlns:ns2="${SERVICE_NS}" xmlns:ns3="${TYPES_NS}">`,
    '<env:Header><ns1:Security><ns1:UsernameToken>',
    `<ns1:Username>${escapeXml(credentials.username)}</ns1:Username>`,
    `<ns1:Password>${escapeXml(credentials.password)}</ns1:Password>`,
    '</ns1:UsernameToken></ns1:Security></env:Header>',
    '<env:Body><ns2:rgWsPublic2AfmMethod><ns2:INPUT_REC>',
    request.calledBy
      ? `<ns3:afm_called_by>${escapeXml(request.calledBy)}</ns3:afm_called_by>`
      : '<ns3:afm_called_by/>',
    `<ns3:afm_called_for>${escapeXml(request.calledFor)}</ns3:afm_called_for>`,
    '</ns2:INPUT_REC></ns2:rgWsPublic2AfmMethod></env:Body>',
    '</env:Envelope>',
  ].join('');
}

/** The content of every element with this local name (any namespace prefix); '' for an empty one. */
export function elements(xml: string, name: string): string[] {
  const pattern = new RegExp(
    `<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}\\s*>)`,
    'g',
  );
  return [...xml.matchAll(pattern)].map((match) => match[1] ?? '');
}

/** The text of the first element with this local name, null when absent, empty or nil. */
export function text(xml: string, name: string): string | null {
  const [content] = elements(xml, name);
  if (content === undefined) return null;
  const value = unescapeXml(content).trim();
  return value === '' ? null : value;
}

/** Reads the service's answer: the taxpayer as trader fields, or the error it reports. */
export function parseResponse(xml: string, calledFor: string): TraderLookup {
  if (elements(xml, 'Fault').length > 0) {
    throw registryUnavailable(
      new Error(`SOAP fault: ${text(xml, 'Text') ?? text(xml, 'faultstring') ?? ''}`),
    );
  }
  const [errorRec] = elements(xml, 'error_rec');
  const errorCode = errorRec === undefined ? null : text(errorRec, 'error_code');
  if (errorCode) throw registryError(errorCode, text(errorRec ?? '', 'error_descr') ?? '');
  const [basic] = elements(xml, 'basic_rec');
  if (basic === undefined) throw registryUnavailable(new Error('no basic_rec in the answer'));
  const [activities] = elements(xml, 'firm_act_tab');
  const items = elements(activities ?? '', 'item');
  // firm_act_kind 1 is the main activity (ΚΥΡΙΑ).
  const main = items.find((item) => text(item, 'firm_act_kind') === '1') ?? items[0];
  return {
    vatnumber: text(basic, 'afm') ?? calledFor,
    fullname: text(basic, 'onomasia'),
    title: text(basic, 'commer_title'),
    doy: text(basic, 'doy'),
    doy_descr: text(basic, 'doy_descr'),
    address: text(basic, 'postal_address'),
    addressNumber: text(basic, 'postal_address_no'),
    zipcode: text(basic, 'postal_zip_code'),
    area: text(basic, 'postal_area_description'),
    activity: main === undefined ? null : text(main, 'firm_act_descr'),
    legalStatus: text(basic, 'legal_status_descr'),
    active: text(basic, 'deactivation_flag') === '1',
  };
}

export const REGISTRY_TIMEOUT_MS = 15_000;

/** Asks the registry about one ΑΦΜ. */
export async function lookupVatNumber(
  url: string,
  credentials: RegistryCredentials,
  request: RegistryRequest,
): Promise<TraderLookup> {
  let body: string;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': `application/soap+xml; charset=utf-8; action="${SERVICE_NS}/rgWsPublic2AfmMethod"`,
        accept: 'application/soap+xml, text/xml',
      },
      body: requestEnvelope(credentials, request),
      signal: AbortSignal.timeout(REGISTRY_TIMEOUT_MS),
    });
    body = await response.text();
    // A SOAP 1.2 fault comes with 500/400: it is read below; anything else is an outage.
    if (!response.ok && !body.includes('Fault')) {
      throw new Error(`HTTP ${response.status}`);
    }
  } catch (error) {
    throw registryUnavailable(error);
  }
  return parseResponse(body, request.calledFor);
}
