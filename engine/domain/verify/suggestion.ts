/** One autocompletion suggestion: a street line and its last line (live and test mode alike). */
export interface Suggestion {
  primary_line: string;
  city: string;
  state: string;
  zip_code: string;
}
