// Package search is the generic computer player of every game: a determinized ("perfect
// information Monte Carlo") search over the games contract, and the levels the lobby offers.
//
// For one decision of a seat it samples worlds consistent with what that seat knows (through
// games.Auditor.Redeal of the real state), plays every legal action out in every world with a fast
// policy (the game's own agent, choosing for each simulated seat from that seat's View and Legal of
// the world), and takes the action with the best mean result for the seat. Of the real state it
// reads only what the seat knows, its View and Legal actions, and the worlds its Redeal draws;
// Search.Choose itself never sees the real state, only a Worlds sampler, so it can know no more
// than the seat.
//
// The game's agent has the first word: its own choice is played unless the best action's mean gain
// over it, across the same worlds and random streams, is more than Budget.Margin standard errors
// above zero. A game whose agent is slow affords only a few worlds per decision, and a plain
// argmax over a few worlds follows their noise; a choice among very many actions (a bid ladder) is
// searched over the agent's choice and an even spread of the rest.
//
// The budget is a count of worlds and simulated moves, never a time, so a table replays the same
// moves from its seed; the same rng gives the same action.
//
// Horizon and evaluation. A rollout ends with the current deal (the first EventDealEnd or
// EventMatchEnd) and scores the seat's total minus the mean of the other seats' totals on the score
// sheet (Sheet.Totals). Later deals are not played: they are dealt from the table's seed, which a
// world keeps as it is, so playing them would both cost time and peek at the real cards to come.
// Own minus the others' mean is linear in every seat's points, so it has the least variance of the
// simple choices; it equals the seat's own money in a zero-sum money game (jokerbank), and in games
// ranked by totals it rewards points taken from the opponents as much as points won, without the
// distortion of "own minus the leader", which would have a trailing seat give away points to
// anybody but the leader.
//
// A world is only as honest as the engine's Redeal. When two sampled worlds are identical the seat
// either knows everything or the cards to come are still in the table's seed (a trump choice before
// the deal, stakes before the turn-up), which no world redraws; the search then leaves the decision
// to the game's agent rather than read the real future.
package search
