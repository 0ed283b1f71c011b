/**
 * The guidance the seeds give the model about memory, carried in the MCP tool descriptions: when a
 * note is worth writing (and when not), and tags for the other words someone might use, because
 * recall matches words, not meaning.
 */
export const WORTH_WRITING =
  "Write a note for durable, reusable knowledge that will improve future sessions: the user's preferences and corrections, " +
  'project decisions and their reasons, conventions, architecture choices, non-obvious facts and where things are (dashboards, docs). ' +
  'Do NOT write ephemeral task state (what you are doing right now, a to-do list, a diff summary), things anyone can read from the code or ' +
  'git history, guesses, or anything secret — credentials, tokens and passwords are refused.';

export const SELF_CONTAINED =
  'Each note must be specific and self-contained: who, what, when, why — someone reading it months later, without this conversation, must understand it.';

export const TAG_OTHER_WORDS =
  'Recall matches words, not meaning: add tags for the other words someone might search with — synonyms, abbreviations, and the term in the ' +
  'other language in use (e.g. tags "deploy, release, 部署, driftsättning"). Tags are split at commas and spaces.';
