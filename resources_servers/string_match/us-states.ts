/**
 * US state names and their postal abbreviations, for answers that name a state either way.
 * Ordered so a name inside a longer one (Kansas in Arkansas, Virginia in West Virginia) is
 * replaced after it.
 * @module
 */

/** [lower-case name, abbreviation], longer containing names first. */
export const US_STATES: ReadonlyArray<readonly [string, string]> = [
  ['district of columbia', 'DC'], ['new hampshire', 'NH'], ['new jersey', 'NJ'], ['new mexico', 'NM'], ['new york', 'NY'],
  ['north carolina', 'NC'], ['north dakota', 'ND'], ['south carolina', 'SC'], ['south dakota', 'SD'], ['rhode island', 'RI'],
  ['west virginia', 'WV'], ['arkansas', 'AR'],
  ['alabama', 'AL'], ['alaska', 'AK'], ['arizona', 'AZ'], ['california', 'CA'], ['colorado', 'CO'], ['connecticut', 'CT'],
  ['delaware', 'DE'], ['florida', 'FL'], ['georgia', 'GA'], ['hawaii', 'HI'], ['idaho', 'ID'], ['illinois', 'IL'],
  ['indiana', 'IN'], ['iowa', 'IA'], ['kansas', 'KS'], ['kentucky', 'KY'], ['louisiana', 'LA'], ['maine', 'ME'],
  ['maryland', 'MD'], ['massachusetts', 'MA'], ['michigan', 'MI'], ['minnesota', 'MN'], ['mississippi', 'MS'], ['missouri', 'MO'],
  ['montana', 'MT'], ['nebraska', 'NE'], ['nevada', 'NV'], ['ohio', 'OH'], ['oklahoma', 'OK'], ['oregon', 'OR'],
  ['pennsylvania', 'PA'], ['tennessee', 'TN'], ['texas', 'TX'], ['utah', 'UT'], ['vermont', 'VT'], ['virginia', 'VA'],
  ['washington', 'WA'], ['wisconsin', 'WI'], ['wyoming', 'WY'],
];
