// The shapes of the messages between a board and its rules worker, written down once for the page.
// Python writes the same shapes as TypedDicts in tafl_rules/webapi.py; tests/test_protocol.py checks
// that every typedef here has the same keys and types as its TypedDict there.
//
// A request is {id, type, payload} (payload: an object, with `board` naming the board's session and,
// on a page in another language, `lang` ("cy"), in which the worker answers: refusals, endings, how to play);
// the worker answers {id, ok, type, payload}: the reply below when ok, an ErrorReply when not.
// Messages with id 0 come from the worker itself: "alive", "progress" (while it starts), "ready"
// (its payload names the build and how Python started), "kept" (what it fetched is in the runtime
// cache), "busy", "beat".

/**
 * The last move as the board draws it.
 * @typedef {Object} LastMove
 * @property {string} from
 * @property {string} to
 * @property {string[]} captures
 * @property {string|null} king_taken  the king's square when this move took him
 */

/**
 * How the game ended (winner null: a draw).
 * @typedef {Object} OutcomeState
 * @property {string|null} winner
 * @property {string} reason
 * @property {string} kind
 */

/**
 * Squares the board draws distinctly.
 * @typedef {Object} Special
 * @property {string|null} throne
 * @property {string[]} corners
 * @property {string[]} camps
 */

/**
 * Pieces each side has taken (the king is not counted).
 * @typedef {Object} Captured
 * @property {number} attackers
 * @property {number} defenders
 */

/**
 * The whole state a board draws; every request that changes the game answers with it.
 * `ranks` run from the top rank down; `start_position` ("" = the rules' own start) and
 * `start_turn` ("" = the rules' own first side) say how the game began; `line` holds every
 * move of the line, those after `cursor` undone.
 * @typedef {Object} BoardState
 * @property {string} variant
 * @property {Object<string, string>} toggles
 * @property {Object<string, string>} applied
 * @property {number} size
 * @property {string[]} ranks
 * @property {string} turn
 * @property {string} start_position
 * @property {string} start_turn
 * @property {Object<string, string[]>} legal
 * @property {string[]} line
 * @property {number} cursor
 * @property {LastMove|null} last_move
 * @property {Captured} captured
 * @property {OutcomeState|null} outcome
 * @property {string[]} announcements
 * @property {Special} special
 * @property {string} rules_otn
 */

/**
 * What `new` and `import` add to the state: how to play, the announcement words the rules use,
 * the variant's name and the name of the catalogue variant whose rules these are ("" if none).
 * @typedef {Object} BoardNotes
 * @property {Array<Array<string>>} howto
 * @property {string[]} terms
 * @property {string} variant_name
 * @property {string} rules_name
 */

/**
 * The reply to `new` and `import`.
 * @typedef {BoardState & BoardNotes} NewReply
 */

/**
 * How the computer's search went ("time": its time cap ended it).
 * @typedef {Object} SearchInfo
 * @property {number} depth
 * @property {number} nodes
 * @property {string} stopped_by
 */

/**
 * What `play` and `ai_move` add to the state: the move as an OTN record (and, for the computer's
 * move, how its search went).
 * @typedef {Object} PlayedMove
 * @property {string} played
 * @property {SearchInfo} [search]
 */

/**
 * The reply to `play` and `ai_move`.
 * @typedef {BoardState & PlayedMove} PlayReply
 */

/**
 * A refused request.
 * @typedef {Object} ErrorReply
 * @property {string} error
 * @property {boolean} [illegal]  a move the rules refuse
 * @property {boolean} [unknown_variant]  a variant id the catalogue does not have
 * @property {{text: string, values: Object<string, string|number>}} [words]  the worker's own failure
 *     (not the engine's) as a message, which the page says in its language
 */

/**
 * How far the worker's start has come: the bytes of each runtime file received so far (decoded,
 * by file name), the way Python starts ("snapshot" or "fresh"; "" until chosen) and the step
 * ("download", then "start" once every file that way needs is in).
 * @typedef {Object} Progress
 * @property {Object<string, number>} loaded
 * @property {string} start
 * @property {string} step
 */

export {};
