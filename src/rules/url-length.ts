/** The schemas' limit: jdftyp:URL and jdftyp:URI restrict xs:anyURI to maxLength 4095 (JDF 1.3 and later). */
export const MAX_URL_LENGTH = 4095;
