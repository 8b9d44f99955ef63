// @ts-check
// The room protocol's types (docs/protocol.md), generated from the pydantic
// models by `python -m tools.protocol_schema`: do not edit. Import them in JSDoc:
//   /** @typedef {import(<this file's URL, relative>).Frame} Frame */
// (written without quotes here: collectstatic rewrites a quoted dynamic import,
// and one of this file naming itself loops its post-processing).
// docs/protocol.schema.json is the same as a JSON Schema.

/**
 * @typedef {object} AbakuBoard
 * @property {string} layout
 * @property {Array<Array<(number | boolean)>>} stones [row, col, digit, joker]
 */

/**
 * An event inside a frame's `events`, told apart by `type`.
 * @typedef {(AbakuStartedEvent | AbakuPlacedEvent | AbakuExchangedEvent | AbakuSkippedEvent | AbakuForfeitedEvent | AbakuTurnEvent | AbakuGameOverEvent | AbakuViewEvent)} AbakuEvent
 */

/**
 * @typedef {object} AbakuExample
 * @property {string} text
 * @property {number} points
 * @property {Array<Array<number>>} cells [row, col] pairs
 */

/**
 * Swap stones of your rack for stones from the bag.
 * @typedef {object} AbakuExchangeMessage
 * @property {"exchange"} type
 * @property {Array<number>} stones the kinds to give back
 */

/**
 * Stones were swapped with the bag.
 * @typedef {object} AbakuExchangedEvent
 * @property {"exchanged"} type
 * @property {number} player the seat number
 * @property {number} count
 */

/**
 * A seat is out (three empty turns, or the player left).
 * @typedef {object} AbakuForfeitedEvent
 * @property {"forfeited"} type
 * @property {number} player the seat number
 * @property {string} [reason] 'left' when the player left
 */

/**
 * The game is over: the end adjustment and the standings.
 * @typedef {object} AbakuGameOverEvent
 * @property {"game_over"} type
 * @property {string} reason
 * @property {(number | null)} closer
 * @property {Array<number>} adjustments
 * @property {Array<number>} scores
 * @property {Array<number>} winners
 * @property {Array<number>} standings seats, best first
 */

/**
 * The engine's view (``games.abaku.rules.view``): no bag order, no seed.
 * @typedef {object} AbakuGameView
 * @property {number} version
 * @property {AbakuBoard} board
 * @property {Array<AbakuPlayerView>} players
 * @property {number} bag_count
 * @property {number} turn the seat on turn
 * @property {number} move_number
 * @property {number} rack_size
 * @property {(number | null)} turn_seconds
 * @property {(number | null)} turn_started
 * @property {boolean} finished
 * @property {(AbakuResult | null)} result
 * @property {Array<Object<string, any>>} [history] the engine's events so far: only in a `sync` snapshot
 * @property {(number | null)} you your seat, null for a spectator
 * @property {(number | null)} deadline seconds since the epoch, null: no clock
 */

/**
 * A client message, told apart by `type`.
 * @typedef {(AbakuPlaceMessage | AbakuExchangeMessage | AbakuSkipMessage)} AbakuMessage
 */

/**
 * Lay stones on the board.
 * @typedef {object} AbakuPlaceMessage
 * @property {"place"} type
 * @property {Array<Array<(number | boolean)>>} placements [row, col, digit] or [row, col, digit, joker] per stone
 */

/**
 * Stones were laid and scored.
 * @typedef {object} AbakuPlacedEvent
 * @property {"placed"} type
 * @property {number} player the seat number
 * @property {Array<Array<(number | boolean)>>} placements [row, col, digit, joker]
 * @property {Array<AbakuExample>} examples
 * @property {number} score
 * @property {number} drew stones drawn from the bag
 */

/**
 * @typedef {object} AbakuPlayerView
 * @property {string} name
 * @property {number} score
 * @property {Array<number>} [rack] only your own (everyone's once the game is over)
 * @property {number} rack_count
 * @property {number} empty_turns
 * @property {string} status active or forfeited
 */

/**
 * @typedef {object} AbakuResult
 * @property {string} reason
 * @property {(number | null)} closer
 * @property {Array<number>} adjustments
 * @property {Array<number>} scores
 * @property {Array<number>} winners
 * @property {Array<number>} standings seats, best first
 */

/**
 * @typedef {object} AbakuSeat
 * @property {number} seat
 * @property {(number | null)} player_id null for a robot
 * @property {(string | null)} nickname
 * @property {(string | null)} robot the robot's level, null for a human
 * @property {boolean} left
 */

/**
 * @typedef {object} AbakuSettings
 * @property {number} table_size
 * @property {string} robot_level
 * @property {(number | null)} turn_seconds null: no clock
 * @property {string} layout
 * @property {number} robot_delay_ms
 */

/**
 * Pass this turn.
 * @typedef {object} AbakuSkipMessage
 * @property {"skip"} type
 */

/**
 * An empty turn.
 * @typedef {object} AbakuSkippedEvent
 * @property {"skipped"} type
 * @property {number} player the seat number
 * @property {string} reason skip or timeout
 */

/**
 * Who sits where, robots included.
 * @typedef {object} AbakuStartedEvent
 * @property {"started"} type
 * @property {Array<AbakuSeat>} seats
 */

/**
 * A seat is on turn.
 * @typedef {object} AbakuTurnEvent
 * @property {"turn"} type
 * @property {number} player the seat number
 * @property {(number | null)} deadline seconds since the epoch, null: no clock
 */

/**
 * What one player sees of an Abaku table (`sync` and `view` events).
 * @typedef {object} AbakuView
 * @property {string} phase playing, finished or ended
 * @property {(number | null)} you your seat, null for a spectator
 * @property {Array<AbakuSeat>} seats
 * @property {AbakuSettings} settings
 * @property {(string | null)} robot_due ISO 8601: when a robot plays next
 * @property {AbakuGameView} game
 */

/**
 * The table after the step (public: no racks; private: with your rack).
 * @typedef {object} AbakuViewEvent
 * @property {"view"} type
 * @property {AbakuView} view
 */

/**
 * A message was applied (or was a repeat).
 * @typedef {object} AckFrame
 * @property {"ack"} type
 * @property {string} id
 * @property {(number | null)} seq the step it produced, or null
 */

/**
 * Host: a lobby closes; a running game is scored and recorded.
 * @typedef {object} EndMessage
 * @property {"end"} type
 */

/**
 * Refused; nothing changed.
 * @typedef {object} ErrorFrame
 * @property {"error"} type
 * @property {(string | null)} id null if the frame had none
 * @property {string} code stable, for programs
 * @property {string} message in the player's language
 */

/**
 * A public step, to the whole room, in `seq` order.
 * @typedef {object} EventFrame
 * @property {"event"} type
 * @property {number} seq
 * @property {Array<Object<string, any>>} events runtime and game events, each typed
 */

/**
 * The room passed its lifetime; the server closes the socket (4410).
 * @typedef {object} ExpiredEvent
 * @property {"expired"} type
 */

/**
 * The game is over (or the host closed the lobby: no results).
 * @typedef {object} FinishedEvent
 * @property {"finished"} type
 * @property {Array<ResultLine>} results
 */

/**
 * A frame the server sends, told apart by `type`.
 * @typedef {(AckFrame | ErrorFrame | SyncFrame | EventFrame | PrivateFrame | PongFrame | KickedFrame)} Frame
 */

/**
 * Host: remove a player for good (told `kicked`, disconnected, never back in this room).
 * @typedef {object} KickMessage
 * @property {"kick"} type
 * @property {number} player_id the seat's player id
 */

/**
 * The host removed you; the socket closes (4403).
 * @typedef {object} KickedFrame
 * @property {"kicked"} type
 * @property {string} message
 */

/**
 * Player, spectator: give up the seat (the host ends instead).
 * @typedef {object} LeaveMessage
 * @property {"leave"} type
 */

/**
 * Host: close joining in the lobby.
 * @typedef {object} LockMessage
 * @property {"lock"} type
 */

/**
 * The host closed joining.
 * @typedef {object} LockedEvent
 * @property {"locked"} type
 */

/**
 * @typedef {object} MathessoBoardSize
 * @property {number} width
 * @property {number} height
 */

/**
 * @typedef {object} MathessoDigit
 * @property {string} digit
 * @property {Array<string>} colours one colour, or two halves
 */

/**
 * End your turn after one flip, or decline an offered extra turn.
 * @typedef {object} MathessoEndTurnMessage
 * @property {"end_turn"} type
 */

/**
 * An event inside a frame's `events`, told apart by `type`.
 * @typedef {(MathessoGameStartedEvent | MathessoTurnStartedEvent | MathessoOrderTieEvent | MathessoOrderLotsEvent | MathessoOrderDecidedEvent | MathessoTurnedBackEvent | MathessoFlippedEvent | MathessoExtraTurnOfferedEvent | MathessoExtraTurnTakenEvent | MathessoExtraTurnDeclinedEvent | MathessoPairTakenEvent | MathessoSheldonEvent | MathessoNoPairEvent | MathessoTurnEndedEvent | MathessoPlayerGoneEvent | MathessoGameOverEvent)} MathessoEvent
 */

/**
 * The player declined the extra turn.
 * @typedef {object} MathessoExtraTurnDeclinedEvent
 * @property {"extra_turn_declined"} type
 * @property {string} player the player's profile id
 */

/**
 * The player may take an extra turn.
 * @typedef {object} MathessoExtraTurnOfferedEvent
 * @property {"extra_turn_offered"} type
 * @property {string} player the player's profile id
 */

/**
 * The player took the extra turn.
 * @typedef {object} MathessoExtraTurnTakenEvent
 * @property {"extra_turn_taken"} type
 * @property {string} player the player's profile id
 */

/**
 * Turn a tile face up (to decide the order, or in your turn).
 * @typedef {object} MathessoFlipMessage
 * @property {"flip"} type
 * @property {number} tile the tile's index on the table
 */

/**
 * A tile was turned face up.
 * @typedef {object} MathessoFlippedEvent
 * @property {"flipped"} type
 * @property {string} player the player's profile id
 * @property {number} tile
 * @property {(number | string)} bw the black-and-white side: a number, or '!'
 * @property {string} face
 * @property {string} group
 * @property {number} value
 * @property {MathessoPicture} [picture] what to draw
 */

/**
 * The game is over.
 * @typedef {object} MathessoGameOverEvent
 * @property {"game_over"} type
 * @property {Object<string, number>} scores by player
 * @property {Array<string>} winners
 * @property {boolean} draw
 */

/**
 * The table is laid out.
 * @typedef {object} MathessoGameStartedEvent
 * @property {"game_started"} type
 * @property {string} variant
 */

/**
 * @typedef {any} MathessoJsonValue
 */

/**
 * A client message, told apart by `type`.
 * @typedef {(MathessoFlipMessage | MathessoEndTurnMessage)} MathessoMessage
 */

/**
 * The two faces differ.
 * @typedef {object} MathessoNoPairEvent
 * @property {"no_pair"} type
 * @property {string} player the player's profile id
 * @property {Array<number>} tiles
 */

/**
 * The order of play.
 * @typedef {object} MathessoOrderDecidedEvent
 * @property {"order_decided"} type
 * @property {Array<string>} order
 */

/**
 * A tie the lot decided, in this order.
 * @typedef {object} MathessoOrderLotsEvent
 * @property {"order_lots"} type
 * @property {Array<string>} players
 */

/**
 * Deciding the order: these players flip another 1 tile, tie by tie.
 * @typedef {object} MathessoOrderTieEvent
 * @property {"order_tie"} type
 * @property {Array<string>} players
 * @property {Array<MathessoTie>} groups
 */

/**
 * Deciding the order of play.
 * @typedef {object} MathessoOrdering
 * @property {Array<string>} waiting
 * @property {Object<string, Array<number>>} draws tiles each player flipped, by player
 * @property {Array<MathessoTie>} again
 * @property {string} [notice] what this viewer is told about a tie
 */

/**
 * Two equal faces: the player keeps the pair.
 * @typedef {object} MathessoPairTakenEvent
 * @property {"pair_taken"} type
 * @property {string} player the player's profile id
 * @property {Array<number>} tiles
 * @property {string} face
 */

/**
 * What a tile's coloured side shows, exactly as it is drawn (`tiles.Picture`).
 * @typedef {object} MathessoPicture
 * @property {number} value
 * @property {Array<MathessoDigit>} digits
 * @property {string} background
 * @property {Array<string>} background_hex
 * @property {(number | null)} behind a zero's translucent number behind the 0
 * @property {number} dots marks under a zero's 0
 * @property {(string | null)} hint a factorial's small n!
 * @property {(number | null)} design CJV design I or II
 */

/**
 * A player left the table for good.
 * @typedef {object} MathessoPlayerGoneEvent
 * @property {"player_gone"} type
 * @property {string} player the player's profile id
 */

/**
 * @typedef {object} MathessoPlayerView
 * @property {string} id
 * @property {Array<string>} pairs one face per pair taken
 * @property {number} score
 * @property {number} turns
 * @property {number} sheldons
 * @property {number} extra_turns
 * @property {boolean} gone
 */

/**
 * @typedef {object} MathessoResult
 * @property {Object<string, number>} scores by player
 * @property {Array<string>} winners
 * @property {boolean} draw
 * @property {Object<string, Object<string, MathessoJsonValue>>} breakdown by player: `scoring.score_breakdown`
 */

/**
 * The player completed a Sheldon.
 * @typedef {object} MathessoSheldonEvent
 * @property {"sheldon"} type
 * @property {string} player the player's profile id
 */

/**
 * @typedef {object} MathessoTie
 * @property {Array<string>} players in seat order
 * @property {number} value the coloured number they all found
 */

/**
 * A tile on the table: its face only while it is face up or taken.
 * @typedef {object} MathessoTile
 * @property {number} id
 * @property {(number | string)} bw the black-and-white side: a number, or '!'
 * @property {number} x
 * @property {number} y
 * @property {number} rot
 * @property {boolean} up
 * @property {(string | null)} owner
 * @property {string} [face] face up or taken
 * @property {string} [group] face up or taken
 * @property {number} [value] face up or taken
 * @property {MathessoPicture} [picture] face up: what to draw
 */

/**
 * @typedef {object} MathessoTurn
 * @property {string} player
 * @property {Array<number>} flips
 * @property {boolean} extra
 * @property {boolean} offer
 */

/**
 * The player's turn is over.
 * @typedef {object} MathessoTurnEndedEvent
 * @property {"turn_ended"} type
 * @property {string} player the player's profile id
 */

/**
 * A player is on turn.
 * @typedef {object} MathessoTurnStartedEvent
 * @property {"turn_started"} type
 * @property {string} player the player's profile id
 * @property {number} round
 * @property {boolean} [extra] an extra turn
 */

/**
 * These tiles are face down again.
 * @typedef {object} MathessoTurnedBackEvent
 * @property {"turned_back"} type
 * @property {Array<number>} tiles
 */

/**
 * What one player sees of a Mathesso table (every player sees the same board).
 * @typedef {object} MathessoView
 * @property {"mathesso"} game
 * @property {string} variant
 * @property {Array<string>} extensions
 * @property {boolean} points
 * @property {string} phase order, play or over
 * @property {number} round
 * @property {MathessoBoardSize} board
 * @property {Array<MathessoTile>} tiles
 * @property {Array<MathessoPlayerView>} players
 * @property {(MathessoOrdering | null)} ordering
 * @property {(MathessoTurn | null)} turn
 * @property {Array<number>} shown
 * @property {(MathessoResult | null)} result
 * @property {(string | null)} you your profile id, null for a spectator
 * @property {Array<string>} actions the message types you may send now
 * @property {boolean} ended the host ended the game
 */

/**
 * Anyone: answered by `pong` (no `id` needed; keep-alive).
 * @typedef {object} PingMessage
 * @property {"ping"} type
 */

/**
 * Somebody took (or came back to) a seat.
 * @typedef {object} PlayerJoinedEvent
 * @property {"player_joined"} type
 * @property {SeatPublic} seat
 */

/**
 * The host removed a player.
 * @typedef {object} PlayerKickedEvent
 * @property {"player_kicked"} type
 * @property {number} player_id
 */

/**
 * A player gave up their seat.
 * @typedef {object} PlayerLeftEvent
 * @property {"player_left"} type
 * @property {number} player_id
 */

/**
 * A board as ``PokerGame.to_dict()`` stores it (``games.poker.rules.state``).
 * @typedef {object} PokerBoard
 * @property {number} version
 * @property {string} table
 * @property {string} mode
 * @property {(number | null)} seconds_per_card
 * @property {Array<(number | null)>} cells 25 cells, row by row
 * @property {Array<number>} joker_cells
 * @property {Array<number>} sequence
 * @property {Array<number>} dealt_at
 * @property {number} handled
 * @property {(number | null)} handled_at
 * @property {number} kept_jokers
 * @property {number} forfeited
 * @property {(Array<number> | null)} deck
 * @property {boolean} closed
 * @property {(number | null)} started_at
 * @property {(number | null)} finished_at
 */

/**
 * What everyone may know of a board while the game runs: no cells.
 * @typedef {object} PokerBoardPublic
 * @property {number} score
 * @property {number} filled
 * @property {number} handled
 * @property {number} forfeited
 * @property {number} kept_jokers
 * @property {boolean} over
 * @property {boolean} completed
 */

/**
 * A card reached the board.
 * @typedef {object} PokerDealtEvent
 * @property {"dealt"} type
 * @property {number} index
 * @property {number} card
 * @property {number} at
 */

/**
 * Group: the host draws the next number. Duel: draw early (empty hand).
 * @typedef {object} PokerDrawMessage
 * @property {"draw"} type
 */

/**
 * The next card of the shared sequence.
 * @typedef {object} PokerDrawnEvent
 * @property {"drawn"} type
 * @property {number} index
 * @property {number} card 1-13, 0 for the joker
 * @property {number} at server time, seconds since the epoch
 * @property {boolean} closed the sequence is complete
 */

/**
 * Private: your board after every step.
 * @typedef {object} PokerDuelBoardEvent
 * @property {"board"} type
 * @property {PokerBoard} game the board as `PokerGame.to_dict()`
 */

/**
 * An event inside a frame's `events`, told apart by `type`.
 * @typedef {(PokerDuelStartedEvent | PokerDrawnEvent | PokerDuelProgressEvent | PokerDuelQuitEvent | PokerDuelOverEvent | PokerDuelBoardEvent)} PokerDuelEvent
 */

/**
 * How a duel ended (``duel_over`` carries the same).
 * @typedef {object} PokerDuelFinal
 * @property {Array<PokerRankedBoard>} ranking
 * @property {boolean} recorded
 * @property {("quit" | "ended" | "idle" | null)} reason
 * @property {(number | null)} quit_by
 */

/**
 * A client message, told apart by `type`.
 * @typedef {(PokerPlaceMessage | PokerUseJokerMessage | PokerKeepJokerMessage | PokerPlaceKeptJokerMessage | PokerDrawMessage | PokerQuitMessage)} PokerDuelMessage
 */

/**
 * The duel is over: the ranking and whether it counts.
 * @typedef {object} PokerDuelOverEvent
 * @property {"duel_over"} type
 * @property {Array<PokerRankedBoard>} ranking
 * @property {boolean} recorded
 * @property {("quit" | "ended" | "idle" | null)} reason
 * @property {(number | null)} quit_by
 */

/**
 * Both boards' public progress, after every step.
 * @typedef {object} PokerDuelProgressEvent
 * @property {"duel_progress"} type
 * @property {Object<string, PokerBoardPublic>} progress by player id
 */

/**
 * A player gave up (or left).
 * @typedef {object} PokerDuelQuitEvent
 * @property {"duel_quit"} type
 * @property {number} player_id
 */

/**
 * The duel started.
 * @typedef {object} PokerDuelStartedEvent
 * @property {"poker_started"} type
 * @property {"duel"} kind
 */

/**
 * What one person sees of a duel.
 * @typedef {object} PokerDuelView
 * @property {"duel"} kind
 * @property {PokerSettings} settings
 * @property {Array<PokerPlayer>} players
 * @property {number} server_now server time, seconds since the epoch
 * @property {number} dealt
 * @property {boolean} closed
 * @property {Object<string, PokerBoardPublic>} progress by player id
 * @property {(PokerBoard | null)} game your board, null for a spectator
 * @property {boolean} ended
 * @property {PokerDuelFinal} [final] once the duel is over
 */

/**
 * Hard mode: time ran out for a number.
 * @typedef {object} PokerForfeitedEvent
 * @property {"forfeited"} type
 * @property {number} index
 * @property {number} card
 * @property {number} at
 */

/**
 * The board is decided.
 * @typedef {object} PokerGameOverEvent
 * @property {"game_over"} type
 * @property {boolean} completed
 * @property {number} score
 * @property {number} at
 */

/**
 * Private: time decided something on the way (hard mode); the stored board.
 * @typedef {object} PokerGroupBoardEvent
 * @property {"board"} type
 * @property {PokerBoard} game the board as `PokerGame.to_dict()`
 * @property {Array<(PokerPlacedEvent | PokerKeptJokerEvent | PokerDealtEvent | PokerForfeitedEvent | PokerJokerExpiredEvent | PokerGameOverEvent)>} events
 */

/**
 * An event inside a frame's `events`, told apart by `type`.
 * @typedef {(PokerGroupStartedEvent | PokerDrawnEvent | PokerLatecomerEvent | PokerNextRoundEvent | PokerGroupBoardEvent)} PokerGroupEvent
 */

/**
 * A client message, told apart by `type`.
 * @typedef {(PokerDrawMessage | PokerPlaceMessage | PokerUseJokerMessage | PokerKeepJokerMessage | PokerPlaceKeptJokerMessage)} PokerGroupMessage
 */

/**
 * @typedef {object} PokerGroupSettings
 * @property {string} table
 * @property {"easy" | "hard"} difficulty
 * @property {(number | null)} seconds per number in hard mode, else null
 * @property {boolean} host_plays
 * @property {boolean} [coach_seat] the coach robot plays a board too
 * @property {number} [previous_room] the round before, if any
 */

/**
 * The group game started: everything public about it.
 * @typedef {object} PokerGroupStartedEvent
 * @property {"poker_started"} type
 * @property {"group"} kind
 * @property {PokerGroupSettings} settings
 * @property {number} host_id
 * @property {Array<PokerPlayer>} players
 * @property {Array<number>} sequence
 * @property {Array<number>} dealt_at
 * @property {boolean} closed
 * @property {boolean} ended
 */

/**
 * What one person sees of a group game.
 * @typedef {object} PokerGroupView
 * @property {"group"} kind
 * @property {PokerGroupSettings} settings
 * @property {number} host_id
 * @property {Array<PokerPlayer>} players
 * @property {Array<number>} sequence
 * @property {Array<number>} dealt_at
 * @property {boolean} closed
 * @property {boolean} ended
 * @property {number} server_now server time, seconds since the epoch
 * @property {boolean} you_play
 * @property {(PokerBoard | null)} game your board, null when you do not play
 * @property {number} [missed] for a player: numbers drawn before joining
 */

/**
 * Hard mode: time ran out for a joker.
 * @typedef {object} PokerJokerExpiredEvent
 * @property {"joker_expired"} type
 * @property {number} index
 * @property {number} at
 */

/**
 * Put the joker in hand into the reserve.
 * @typedef {object} PokerKeepJokerMessage
 * @property {"keep_joker"} type
 */

/**
 * The joker went into the reserve.
 * @typedef {object} PokerKeptJokerEvent
 * @property {"kept_joker"} type
 * @property {number} index
 * @property {number} at
 */

/**
 * A player joined the running game; the numbers drawn before the one in hand count as missed on their board.
 * @typedef {object} PokerLatecomerEvent
 * @property {"latecomer"} type
 * @property {number} player_id
 */

/**
 * After the end: the host opened the next round; every page still open goes there (its players are already seated in it).
 * @typedef {object} PokerNextRoundEvent
 * @property {"next_round"} type
 * @property {string} code the new lobby's join code
 */

/**
 * Place a joker from the reserve as a number.
 * @typedef {object} PokerPlaceKeptJokerMessage
 * @property {"place_kept_joker"} type
 * @property {number} cell 0-24
 * @property {number} value 1-13
 */

/**
 * Put the number in hand into a cell.
 * @typedef {object} PokerPlaceMessage
 * @property {"place"} type
 * @property {number} cell 0-24
 */

/**
 * A number went into a cell.
 * @typedef {object} PokerPlacedEvent
 * @property {"placed"} type
 * @property {number} cell
 * @property {number} value
 * @property {boolean} joker
 * @property {boolean} kept
 * @property {number} at
 */

/**
 * @typedef {object} PokerPlayer
 * @property {number} player_id
 * @property {string} nickname
 */

/**
 * Duel: give up the duel.
 * @typedef {object} PokerQuitMessage
 * @property {"quit"} type
 */

/**
 * A finished duel board in the final ranking.
 * @typedef {object} PokerRankedBoard
 * @property {number} score
 * @property {number} filled
 * @property {number} handled
 * @property {number} forfeited
 * @property {number} kept_jokers
 * @property {boolean} over
 * @property {boolean} completed
 * @property {number} player_id
 * @property {string} nickname
 * @property {Array<(number | null)>} cells
 * @property {Array<number>} joker_cells
 * @property {Array<number>} lines the 12 line scores
 * @property {number} rank
 * @property {number} opponent
 * @property {"win" | "loss" | "draw"} outcome
 */

/**
 * @typedef {object} PokerSettings
 * @property {string} table
 * @property {"easy" | "hard"} difficulty
 * @property {(number | null)} seconds per number in hard mode, else null
 */

/**
 * Place the joker in hand as a number.
 * @typedef {object} PokerUseJokerMessage
 * @property {"use_joker"} type
 * @property {number} cell 0-24
 * @property {number} value 1-13
 */

/**
 * The answer to `ping`.
 * @typedef {object} PongFrame
 * @property {"pong"} type
 * @property {(string | null)} id
 */

/**
 * The private part of a step, only to its player.
 * @typedef {object} PrivateFrame
 * @property {"private"} type
 * @property {(number | null)} seq of the step, or null for a purely private seat move
 * @property {Array<Object<string, any>>} events game events, each typed
 */

/**
 * The host started the same table again: every page goes to the new room.
 * @typedef {object} RematchEvent
 * @property {"rematch"} type
 * @property {string} code the new room's code
 */

/**
 * One player's result when a game ends.
 * @typedef {object} ResultLine
 * @property {number} player_id
 * @property {number} score
 * @property {(number | null)} rank
 * @property {boolean} completed
 */

/**
 * The room in a `sync` snapshot.
 * @typedef {object} RoomInfo
 * @property {string} code
 * @property {string} game
 * @property {string} mode
 * @property {"lobby" | "running" | "finished" | "expired"} status
 * @property {boolean} locked
 * @property {number} host_id
 * @property {number} max_players
 * @property {boolean} spectators
 * @property {string} expires_at ISO 8601
 * @property {Array<SeatPublic>} seats seats taken now and those given up while the game ran
 */

/**
 * An event inside a frame's `events`, told apart by `type`.
 * @typedef {(PlayerJoinedEvent | PlayerLeftEvent | PlayerKickedEvent | LockedEvent | UnlockedEvent | StartedEvent | FinishedEvent | ExpiredEvent | RematchEvent)} RuntimeEvent
 */

/**
 * A client message, told apart by `type`.
 * @typedef {(SyncMessage | PingMessage | StartMessage | LockMessage | UnlockMessage | KickMessage | EndMessage | LeaveMessage | TickMessage)} RuntimeMessage
 */

/**
 * A seat as everyone in the room may know it.
 * @typedef {object} SeatPublic
 * @property {number} player_id
 * @property {string} nickname
 * @property {"host" | "player" | "spectator"} role
 * @property {"joined" | "left" | "kicked"} status
 */

/**
 * Host: lobby -> running; the game's `start()` deals.
 * @typedef {object} StartMessage
 * @property {"start"} type
 */

/**
 * The game started; the game's own first events follow.
 * @typedef {object} StartedEvent
 * @property {"started"} type
 */

/**
 * A snapshot of the room as this player may see it: on connect and on request.
 * @typedef {object} SyncFrame
 * @property {"sync"} type
 * @property {number} seq
 * @property {RoomInfo} room
 * @property {You} you
 * @property {Object<string, any>} view the game's view for this player
 * @property {string} [id] present when the snapshot answers a `sync`
 */

/**
 * Anyone: answered by a `sync` snapshot carrying the same `id`.
 * @typedef {object} SyncMessage
 * @property {"sync"} type
 */

/**
 * One engine action; the server adds the sender's seat.
 * @typedef {object} TheoremsAction
 * @property {string} type define, draw, play, prove, use, end_turn or choose
 * @property {string} [card] for define, play, prove and use
 * @property {TheoremsJsonValue} [choice] for choose: one of the offered options
 */

/**
 * Play: one action of the player the engine waits for.
 * @typedef {object} TheoremsActionMessage
 * @property {"action"} type
 * @property {TheoremsAction} action
 */

/**
 * Actions gained or lost.
 * @typedef {object} TheoremsActionsEvent
 * @property {"actions"} type
 * @property {number} player the seat number
 * @property {number} amount
 * @property {number} left
 */

/**
 * Ambition changed.
 * @typedef {object} TheoremsAmbitionEvent
 * @property {"ambition"} type
 * @property {number} player the seat number
 * @property {number} amount
 */

/**
 * Boredom changed.
 * @typedef {object} TheoremsBoredomEvent
 * @property {"boredom"} type
 * @property {number} player the seat number
 * @property {number} amount
 * @property {number} boredom
 */

/**
 * A card burnt.
 * @typedef {object} TheoremsBurnEvent
 * @property {"burn"} type
 * @property {number} player the seat number
 * @property {string} card
 */

/**
 * Every seat has a deck: the cards are dealt.
 * @typedef {object} TheoremsDealtEvent
 * @property {"dealt"} type
 * @property {Array<TheoremsSeat>} seats
 */

/**
 * @typedef {object} TheoremsDecision
 * @property {number} player the seat that decides
 * @property {string} kind
 * @property {(string | null)} source
 * @property {Array<TheoremsJsonValue>} [options] only for the seat that decides
 */

/**
 * A seat chose its deck.
 * @typedef {object} TheoremsDeckChosenEvent
 * @property {"deck_chosen"} type
 * @property {number} seat the seat number
 */

/**
 * Setup: play with this deck (a starter deck or a saved one, checked by the engine).
 * @typedef {object} TheoremsDeckMessage
 * @property {"deck"} type
 * @property {string} name 1-60 characters
 * @property {string} mathematician the mathematician card
 * @property {Array<string>} cards 10-20 card ids
 */

/**
 * A free definition at the start of the turn.
 * @typedef {object} TheoremsDefineEvent
 * @property {"define"} type
 * @property {number} player the seat number
 * @property {string} card
 */

/**
 * A theorem's difficulty changed.
 * @typedef {object} TheoremsDifficultyEvent
 * @property {"difficulty"} type
 * @property {number} player the seat number
 * @property {string} card
 * @property {number} amount
 */

/**
 * A card discarded.
 * @typedef {object} TheoremsDiscardEvent
 * @property {"discard"} type
 * @property {number} player the seat number
 * @property {string} card
 */

/**
 * Cards drawn.
 * @typedef {object} TheoremsDrawEvent
 * @property {"draw"} type
 * @property {number} player the seat number
 * @property {number} count
 */

/**
 * The turn ended.
 * @typedef {object} TheoremsEndTurnEvent
 * @property {"end_turn"} type
 * @property {number} player the seat number
 */

/**
 * An event inside a frame's `events`, told apart by `type`.
 * @typedef {(TheoremsTableEvent | TheoremsDeckChosenEvent | TheoremsDealtEvent | TheoremsSeatLeftEvent | TheoremsLogEvent | TheoremsViewEvent)} TheoremsEvent
 */

/**
 * A card fetched from a pile.
 * @typedef {object} TheoremsFetchEvent
 * @property {"fetch"} type
 * @property {number} player the seat number
 * @property {string} pile
 * @property {(string | null)} card
 */

/**
 * A reshuffle that costs no boredom.
 * @typedef {object} TheoremsFreeReshuffleEvent
 * @property {"free_reshuffle"} type
 * @property {number} player the seat number
 */

/**
 * The game is over.
 * @typedef {object} TheoremsGameOverEvent
 * @property {"game_over"} type
 * @property {Array<number>} winners
 */

/**
 * The engine's view (``games.theorems.rules.view``): no other hand, no pile order.
 * @typedef {object} TheoremsGameView
 * @property {string} status
 * @property {Array<number>} winners
 * @property {number} current
 * @property {(number | null)} to_act
 * @property {number} start_player
 * @property {number} turn_number
 * @property {number} actions_left
 * @property {boolean} free_definition
 * @property {Array<string>} proved_this_turn
 * @property {Array<string>} tools_used
 * @property {Array<string>} events_played
 * @property {boolean} burn
 * @property {(TheoremsDecision | null)} decision
 * @property {Array<TheoremsPlayerView>} players
 * @property {Array<(TheoremsGameOverEvent | TheoremsLostEvent | TheoremsLeftEvent | TheoremsTurnEvent | TheoremsDefineEvent | TheoremsDrawEvent | TheoremsPlayEvent | TheoremsProveEvent | TheoremsUseEvent | TheoremsEndTurnEvent | TheoremsBoredomEvent | TheoremsReshuffleEvent | TheoremsFreeReshuffleEvent | TheoremsProvenEvent | TheoremsProgressEvent | TheoremsNoTargetEvent | TheoremsActionsEvent | TheoremsPatienceEvent | TheoremsAmbitionEvent | TheoremsDifficultyEvent | TheoremsDiscardEvent | TheoremsStealEvent | TheoremsRepeatEvent | TheoremsFetchEvent | TheoremsBurnEvent)>} [log] only in a `sync` snapshot
 * @property {Array<Object<string, TheoremsJsonValue>>} legal_actions the engine's actions, only for the seat to act
 */

/**
 * @typedef {any} TheoremsJsonValue
 */

/**
 * The seat is out: the player left.
 * @typedef {object} TheoremsLeftEvent
 * @property {"left"} type
 * @property {number} player the seat number
 */

/**
 * What happened since the last step, entry by entry.
 * @typedef {object} TheoremsLogEvent
 * @property {"log"} type
 * @property {Array<(TheoremsGameOverEvent | TheoremsLostEvent | TheoremsLeftEvent | TheoremsTurnEvent | TheoremsDefineEvent | TheoremsDrawEvent | TheoremsPlayEvent | TheoremsProveEvent | TheoremsUseEvent | TheoremsEndTurnEvent | TheoremsBoredomEvent | TheoremsReshuffleEvent | TheoremsFreeReshuffleEvent | TheoremsProvenEvent | TheoremsProgressEvent | TheoremsNoTargetEvent | TheoremsActionsEvent | TheoremsPatienceEvent | TheoremsAmbitionEvent | TheoremsDifficultyEvent | TheoremsDiscardEvent | TheoremsStealEvent | TheoremsRepeatEvent | TheoremsFetchEvent | TheoremsBurnEvent)>} entries
 */

/**
 * The seat is out: too bored.
 * @typedef {object} TheoremsLostEvent
 * @property {"lost"} type
 * @property {number} player the seat number
 */

/**
 * A client message, told apart by `type`.
 * @typedef {(TheoremsDeckMessage | TheoremsActionMessage)} TheoremsMessage
 */

/**
 * @typedef {object} TheoremsMyDeck
 * @property {string} name
 * @property {string} mathematician
 * @property {Array<string>} cards
 */

/**
 * An effect found nothing to act on.
 * @typedef {object} TheoremsNoTargetEvent
 * @property {"no_target"} type
 * @property {number} player the seat number
 * @property {string} card
 */

/**
 * Patience changed.
 * @typedef {object} TheoremsPatienceEvent
 * @property {"patience"} type
 * @property {number} player the seat number
 * @property {number} amount
 */

/**
 * A card played.
 * @typedef {object} TheoremsPlayEvent
 * @property {"play"} type
 * @property {number} player the seat number
 * @property {string} card
 */

/**
 * @typedef {object} TheoremsPlayerView
 * @property {number} seat
 * @property {string} mathematician
 * @property {number} boredom
 * @property {number} patience
 * @property {number} ambition
 * @property {number} hand_limit
 * @property {number} hand_count
 * @property {number} draw_pile_count
 * @property {Array<string>} discard_pile sorted
 * @property {Array<TheoremsTheorem>} theorems
 * @property {Array<string>} tools
 * @property {(string | null)} definition
 * @property {Array<string>} proven
 * @property {Array<string>} resolving
 * @property {number} reshuffles
 * @property {boolean} lost
 * @property {Array<string>} [hand] only your own
 */

/**
 * A proof advanced.
 * @typedef {object} TheoremsProgressEvent
 * @property {"progress"} type
 * @property {number} player the seat number
 * @property {string} card
 * @property {number} amount
 * @property {number} progress
 */

/**
 * A proof worked on.
 * @typedef {object} TheoremsProveEvent
 * @property {"prove"} type
 * @property {number} player the seat number
 * @property {string} card
 */

/**
 * A theorem is proven.
 * @typedef {object} TheoremsProvenEvent
 * @property {"proven"} type
 * @property {number} player the seat number
 * @property {string} card
 */

/**
 * An event card repeated.
 * @typedef {object} TheoremsRepeatEvent
 * @property {"repeat"} type
 * @property {number} player the seat number
 * @property {string} card
 */

/**
 * The discard pile became the draw pile.
 * @typedef {object} TheoremsReshuffleEvent
 * @property {"reshuffle"} type
 * @property {number} player the seat number
 * @property {number} count
 */

/**
 * @typedef {object} TheoremsSeat
 * @property {number} seat
 * @property {(number | null)} player_id null for a robot
 * @property {(string | null)} nickname
 * @property {(number | boolean)} robot the robot's number, false for a human
 * @property {boolean} ready the seat has a deck
 * @property {(string | null)} deck_name
 * @property {(string | null)} mathematician shown once the cards are dealt
 * @property {boolean} [left] only present (true) for a player who left
 */

/**
 * A player left the table.
 * @typedef {object} TheoremsSeatLeftEvent
 * @property {"seat_left"} type
 * @property {number} seat the seat number
 */

/**
 * A card taken from another seat.
 * @typedef {object} TheoremsStealEvent
 * @property {"steal"} type
 * @property {number} player the seat number
 * @property {number} victim the seat number
 * @property {(string | null)} card
 */

/**
 * Who sits where, robots included.
 * @typedef {object} TheoremsTableEvent
 * @property {"table"} type
 * @property {Array<TheoremsSeat>} seats
 */

/**
 * @typedef {object} TheoremsTheorem
 * @property {string} card
 * @property {number} progress
 * @property {number} difficulty
 * @property {number} difficulty_delta
 */

/**
 * The seat's turn begins.
 * @typedef {object} TheoremsTurnEvent
 * @property {"turn"} type
 * @property {number} player the seat number
 * @property {number} turn
 */

/**
 * A tool used.
 * @typedef {object} TheoremsUseEvent
 * @property {"use"} type
 * @property {number} player the seat number
 * @property {string} card
 */

/**
 * What one player sees of a Matematici table (`sync` and `view` events).
 * @typedef {object} TheoremsView
 * @property {string} phase setup, playing, finished or ended
 * @property {(number | null)} you your seat, null for a spectator
 * @property {Array<TheoremsSeat>} seats
 * @property {boolean} burn
 * @property {number} robot_delay_ms
 * @property {(TheoremsGameView | null)} game null until the cards are dealt
 * @property {(TheoremsMyDeck | null)} [my_deck] absent for a spectator
 */

/**
 * Private: the table as you see it, with your hand.
 * @typedef {object} TheoremsViewEvent
 * @property {"view"} type
 * @property {TheoremsView} view
 */

/**
 * Anyone: a deadline I know of has passed; the server evaluates time rules.
 * @typedef {object} TickMessage
 * @property {"tick"} type
 */

/**
 * Host: open joining in the lobby again.
 * @typedef {object} UnlockMessage
 * @property {"unlock"} type
 */

/**
 * The host opened joining again.
 * @typedef {object} UnlockedEvent
 * @property {"unlocked"} type
 */

/**
 * The receiving player in a `sync` snapshot.
 * @typedef {object} You
 * @property {number} player_id
 * @property {"host" | "player" | "spectator"} role
 * @property {("joined" | "left" | "kicked" | null)} status
 */

export {};
