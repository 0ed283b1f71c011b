/**
 * English stop words: function words that would otherwise make every message "match" every note.
 * Compared before stemming, in lower case, with apostrophes removed ("don't" → "dont"). Contractions that
 * are also technical words (id, shell, ill, wed, hell) are deliberately not stop words.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are arent as at be because been before being
  below between both but by can cant cannot could couldnt did didnt do does doesnt doing dont down
  during each few for from further had hadnt has hasnt have havent having he hed hes her here
  heres hers herself him himself his how hows i im ive if in into is isnt it its itself lets
  me more most mustnt my myself no nor not of off on once only or other ought our ours ourselves out
  over own same shant she shed shes should shouldnt so some such than that thats the their
  theirs them themselves then there theres these they theyd theyll theyre theyve this those through
  to too under until up very was wasnt we well were weve werent what whats when whens where
  wheres which while who whos whom why whys with wont would wouldnt you youd youll youre youve your
  yours yourself yourselves also just will shall may might must us please via get got yes ok okay`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Words that make a text a question or a request about memory rather than name its topic ("what
 * did she say about…", "do you remember…", "tell me about…"). Dropped from queries and recall
 * messages only, never from notes: in a note they can be content ("we talked to the vendor").
 * Compared before stemming, like the stop words.
 */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(
  `tell tells told telling say says said saying mention mentions mentioned mentioning talk talks
  talked talking remember remembers remembered know knows knew think thinks thought thing things
  something anything everything someone anyone somebody anybody ever exactly specifically actually
  really`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Question phrases whose words are topical elsewhere: "kind" in "what kind of music" asks, in
 * "kind words" it does not; "long" in "how long has she…" asks, in "long build times" it does not.
 * The matched words are removed from the query text before analysis.
 */
export const QUESTION_PHRASES: readonly RegExp[] = [
  /\b(?:what|which)\s+(?:kind|kinds|type|types|sort|sorts)\s+of\b/gi,
  /\bhow\s+(?:long|many|much|often)\b/gi,
  /\b(?:do|did|can|could|would|will)\s+you\s+(?:remember|recall|tell)\b/gi,
];
