// Package nimmt is the Go bot kit of the Nimmt Arena: write a bot, then nimmt.Run(bot) connects
// it to the arena and plays the match.
//
// A bot embeds KitBot, which gives every decision a default, and overrides the hooks it cares
// about:
//
//	type Lowball struct{ nimmt.KitBot }
//
//	func (b *Lowball) ChooseTile(view *nimmt.View) int { return view.Hand[0] }
//
//	func main() { nimmt.Run(&Lowball{}) }
//
// The hooks get the seat's View: everything it may know, including View.Legal, the legal
// options. The defaults are the arena's default decisions: the lowest tile, the first legal luck
// space, no action card, the row with the fewest bullheads. A hook may say what the bot was
// thinking, for its owner's eyes only, with KitBot.Annotate (see Note).
package nimmt

import (
	"math/rand"
	"time"
)

// GameInfo is what a bot learns when a game starts.
type GameInfo struct {
	GameID  string
	Variant string
	Players int
	Seat    int
	Seed    uint64 // for the bot's own random generator (KitBot.Rng is seeded from it)
	Names   []string
}

// Bot is a player: one hook per decision kind, and the start and end of each game.
type Bot interface {
	// Name is the bot's own name, sent in Hello (the arena names seats from the manifest).
	Name() string
	// StartGame is called when a game begins.
	StartGame(info GameInfo)
	// ChooseTile returns the tile to reveal this turn, from view.Hand.
	ChooseTile(view *View) int
	// PlaceLuck returns (row, space) for the luck card just drawn ("plus5" or "final10").
	PlaceLuck(view *View, card string) (row, space int)
	// PlayAction returns an action card to play on tile (yours, about to be placed), or nil.
	PlayAction(view *View, tile int) *PlayAction
	// TakeRow returns the row to take (card game: tile is lower than every row's end).
	TakeRow(view *View, tile int) int
	// EndGame is called when a game is over, with the final view, scores and ranks.
	EndGame(view *View, scores, ranks []int)
}

// KitBot gives every hook of Bot its default; embed it and override what you want. Info is the
// current game's, Rng a generator seeded from the game's seed (draw all randomness from it and a
// match replays identically for the same match seed).
type KitBot struct {
	Info GameInfo
	Rng  *rand.Rand
	note *Note // Annotate's, until the kit sends it
}

// Name is "kitbot"; give your bot a Name method of its own.
func (b *KitBot) Name() string { return "kitbot" }

// StartGame keeps the game's info and seeds Rng; a bot overriding it should call it too.
func (b *KitBot) StartGame(info GameInfo) {
	b.Info = info
	b.Rng = rand.New(rand.NewSource(int64(info.Seed)))
}

// ChooseTile is the lowest tile.
func (b *KitBot) ChooseTile(view *View) int { return view.Hand[0] }

// PlaceLuck is the first legal space.
func (b *KitBot) PlaceLuck(view *View, card string) (int, int) {
	for _, option := range view.Legal {
		if luck, ok := option.(PlaceLuck); ok {
			return luck.Row, luck.Space
		}
	}
	return 0, 0
}

// PlayAction keeps the cards.
func (b *KitBot) PlayAction(view *View, tile int) *PlayAction { return nil }

// TakeRow is the row with the fewest bullheads (the topmost of equal rows).
func (b *KitBot) TakeRow(view *View, tile int) int { return FewestBullheadsRow(view.Spaces) }

// EndGame does nothing.
func (b *KitBot) EndGame(view *View, scores, ranks []int) {}

// TimeLeft is how long is left to answer the current request (counted from when the kit read
// it); a very long time outside a request.
func (b *KitBot) TimeLeft() time.Duration { return TimeLeft() }

// Bullheads is the number of bullheads on a card of the card game (RULES.md 7).
func Bullheads(tile int) int {
	switch {
	case tile == 55:
		return 7
	case tile%11 == 0:
		return 5
	case tile%10 == 0:
		return 3
	case tile%5 == 0:
		return 2
	}
	return 1
}

// FewestBullheadsRow is the row whose tiles carry the fewest bullheads (the topmost of equal
// rows): the arena's default when a seat must take a row.
func FewestBullheadsRow(spaces [][]int) int {
	best, fewest := 0, -1
	for r, row := range spaces {
		total := 0
		for _, tile := range row {
			if tile > 0 {
				total += Bullheads(tile)
			}
		}
		if fewest < 0 || total < fewest {
			best, fewest = r, total
		}
	}
	return best
}

// decide asks bot the hook of the view's pending decision.
func decide(bot Bot, view *View) Decision {
	pending := view.Pending
	switch {
	case pending == nil:
		panic("the arena asked for a decision with nothing pending")
	case pending.Kind == KindTile:
		return PlayTile{bot.ChooseTile(view)}
	case pending.Kind == KindLuck:
		row, space := bot.PlaceLuck(view, pending.Card)
		return PlaceLuck{row, space}
	}
	tile := 0
	if pending.Tile != nil {
		tile = *pending.Tile
	}
	if pending.Kind == KindAction {
		if action := bot.PlayAction(view, tile); action != nil {
			return *action
		}
		return PlayAction{}
	}
	return TakeRow{bot.TakeRow(view, tile)}
}
