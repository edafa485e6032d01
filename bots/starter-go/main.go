// The starter bot: copy this folder, rename the bot in nimmt-bot.toml, make it yours.
//
// It overrides one decision of the kit's KitBot and keeps the defaults for the others (first
// free space for a luck card, no action card, the row with the fewest bullheads in the card
// game). It plays exactly as the Python starter (bots/starter-python/bot.py) does. See
// README.md beside this file.
package main

import (
	"fmt"
	"strings"

	"nimmt-arena/bot/nimmt"
)

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
// (card game: -1, the player must take a row). -1 too when Stop cards closed every row that
// holds a tile: nothing is known of where it goes.
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
	return highest
}

// fit is where tile would go: its row (-1: card game, lower than every row, we would take
// one; or no row open), whether it completes the row, and its distance from the row's last
// tile (negative: the board game puts a tile lower than every row's end after the highest end).
func fit(view *nimmt.View, tile int) (row int, completes bool, gap int) {
	row = targetRow(view, tile)
	if row < 0 {
		return -1, true, 0
	}
	spaces := view.Spaces[row]
	// Board game: the last space is the final one. Card game: the sixth card takes.
	room := len(spaces) - filled(spaces) - 1
	if view.Variant == "classic" {
		room++
	}
	return row, room <= 0, tile - lastTile(spaces)
}

// rowBullheads is the bullheads of the row's tiles (the card game's).
func rowBullheads(row []int) int {
	total := 0
	for _, tile := range row {
		if tile > 0 {
			total += nimmt.Bullheads(tile)
		}
	}
	return total
}

// risk is how the starter ranks a tile, the lowest first: a tile that goes after a lower row
// end without completing the row, the closest fit first; then one lower than every row's end
// (the board game puts it after the highest end), the closest first; then one that completes
// its row (board game: the closest first; card game: the fewest bullheads taken first, a tile
// lower than every row taking the cheapest row); last, in the board game, one that finds no
// open row (Stop cards closed them all), the lowest first.
func risk(view *nimmt.View, tile int) [2]int {
	row, completes, gap := fit(view, tile)
	switch {
	case view.Variant == "classic" && completes && row >= 0:
		return [2]int{2, rowBullheads(view.Spaces[row])}
	case view.Variant == "classic" && completes:
		cheapest := -1
		for _, r := range view.Spaces {
			if cost := rowBullheads(r); cheapest < 0 || cost < cheapest {
				cheapest = cost
			}
		}
		return [2]int{2, cheapest}
	case row < 0:
		return [2]int{3, tile}
	case completes && gap < 0:
		return [2]int{2, -gap}
	case completes:
		return [2]int{2, gap}
	case gap < 0:
		return [2]int{1, -gap}
	}
	return [2]int{0, gap}
}

// tileValue is the starter's own number for a tile, shown to its owner beside the note: the
// distance from the end of the row it goes to (a close fit is safer), -1 if it completes or
// takes a row.
func tileValue(view *nimmt.View, tile int) float64 {
	_, completes, gap := fit(view, tile)
	if completes {
		return -1
	}
	return float64(gap)
}

// tileNote is a line about the tile choice for the bot's owner: each tile's row and fit.
func tileNote(view *nimmt.View, chosen int) string {
	parts := make([]string, 0, len(view.Hand))
	for _, tile := range view.Hand {
		row, completes, gap := fit(view, tile)
		switch {
		case row < 0 && view.Variant != "classic":
			parts = append(parts, fmt.Sprintf("%d→no open row", tile))
		case row < 0:
			parts = append(parts, fmt.Sprintf("%d→takes a row", tile))
		case completes:
			parts = append(parts, fmt.Sprintf("%d→row %d completes", tile, row))
		default:
			parts = append(parts, fmt.Sprintf("%d→row %d gap %d", tile, row, gap))
		}
	}
	return fmt.Sprintf("chose %d: ", chosen) + strings.Join(parts, ", ")
}

// StarterBot is the starter's strategy.
type StarterBot struct{ nimmt.KitBot }

// Name is the bot's own name.
func (b *StarterBot) Name() string { return "starter" }

// ChooseTile plays the tile of the lowest risk (the first of equal ones in the hand's order, as
// Python's min does), and says why in a note.
func (b *StarterBot) ChooseTile(view *nimmt.View) int {
	best, bestRisk := view.Hand[0], risk(view, view.Hand[0])
	for _, tile := range view.Hand[1:] {
		r := risk(view, tile)
		if r[0] < bestRisk[0] || (r[0] == bestRisk[0] && r[1] < bestRisk[1]) {
			best, bestRisk = tile, r
		}
	}
	values := map[int]float64{}
	for _, tile := range view.Hand {
		values[tile] = tileValue(view, tile)
	}
	b.Annotate(tileNote(view, best), nimmt.TileValues(view, values))
	return best
}

func main() { nimmt.Run(&StarterBot{}) }
