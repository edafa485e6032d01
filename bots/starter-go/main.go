// The starter bot: copy this folder, rename the bot in nimmt-bot.toml, make it yours.
//
// It overrides one decision of the kit's KitBot and keeps the defaults for the others (first
// free space for a luck card, no action card, the row with the fewest bullheads in the card
// game). It plays exactly as the Python starter (bots/starter-python/bot.py) does. See
// README.md beside this file.
package main

import "nimmt-arena/bot/nimmt"

// lastTile is the row's last tile, 0 if the row is empty (skipped spaces hold -1).
func lastTile(row []int) int {
	last := 0
	for _, tile := range row {
		if tile > 0 {
			last = tile
		}
	}
	return last
}

// filled is how many spaces of the row are used (tiles and skipped spaces).
func filled(row []int) int {
	used := 0
	for i, tile := range row {
		if tile != 0 {
			used = i + 1
		}
	}
	return used
}

// targetRow is the row tile goes to by the normal rule (RULES.md 3.2): the active row whose
// last tile is the highest one below tile; if there is none, the row with the highest last tile
// (card game: -1, the player must take a row).
func targetRow(view *nimmt.View, tile int) int {
	stopped := map[int]bool{}
	for _, r := range view.Stops {
		stopped[r] = true
	}
	below, highest := -1, -1
	for r, row := range view.Spaces {
		end := lastTile(row)
		if end == 0 || stopped[r] {
			continue
		}
		if end < tile && (below < 0 || end > lastTile(view.Spaces[below])) {
			below = r
		}
		if highest < 0 || end > lastTile(view.Spaces[highest]) {
			highest = r
		}
	}
	if below >= 0 {
		return below
	}
	if view.Variant == "classic" {
		return -1
	}
	if highest < 0 {
		panic("no row has a tile to place next to")
	}
	return highest
}

// risk orders the tiles: first those that do not complete a row, then the closest fit.
func risk(view *nimmt.View, tile int) [2]int {
	row := targetRow(view, tile)
	if row < 0 { // card game: lower than every row, we would take one
		return [2]int{1, tile}
	}
	spaces := view.Spaces[row]
	// Board game: the last space is the final one. Card game: the sixth card takes.
	room := len(spaces) - filled(spaces) - 1
	if view.Variant == "classic" {
		room++
	}
	completes := 0
	if room <= 0 {
		completes = 1
	}
	return [2]int{completes, tile - lastTile(spaces)}
}

// StarterBot is the starter's strategy.
type StarterBot struct{ nimmt.KitBot }

// Name is the bot's own name.
func (b *StarterBot) Name() string { return "starter" }

// ChooseTile prefers tiles that do not complete a row, the closest fit first (the first of
// equal tiles in the hand's order, as Python's min does).
func (b *StarterBot) ChooseTile(view *nimmt.View) int {
	best, bestRisk := view.Hand[0], risk(view, view.Hand[0])
	for _, tile := range view.Hand[1:] {
		r := risk(view, tile)
		if r[0] < bestRisk[0] || (r[0] == bestRisk[0] && r[1] < bestRisk[1]) {
			best, bestRisk = tile, r
		}
	}
	return best
}

func main() { nimmt.Run(&StarterBot{}) }
