package main

import (
	"testing"

	"nimmt-arena/bot/nimmt"
)

func TestItAvoidsTheTileThatFillsARow(t *testing.T) {
	view := &nimmt.View{Variant: "basic", Hand: []int{6, 30},
		Spaces: [][]int{{1, 2, 5, 0}, {20, 0, 0, 0, 0}}}
	// 6 would go after 5 into the row's final space; 30 fits after 20 with room to spare.
	if got := (&StarterBot{}).ChooseTile(view); got != 30 {
		t.Errorf("chose %d, want 30", got)
	}
}

func TestInTheCardGameATileBelowEveryRowIsALastResort(t *testing.T) {
	view := &nimmt.View{Variant: "classic", Hand: []int{2, 50},
		Spaces: [][]int{{10, 0, 0, 0, 0, 0}, {40, 0, 0, 0, 0, 0}}}
	if got := (&StarterBot{}).ChooseTile(view); got != 50 {
		t.Errorf("chose %d, want 50", got)
	}
}

func TestATileLowerThanEveryRowIsPlayedOnlyWhenNoneFits(t *testing.T) {
	view := &nimmt.View{Variant: "basic", Hand: []int{4, 30},
		Spaces: [][]int{{43, 0, 0, 0, 0}, {29, 0, 0, 0, 0}}}
	// 4 would go after 43 (gap -39), 30 fits after 29 (gap 1).
	if got := (&StarterBot{}).ChooseTile(view); got != 30 {
		t.Errorf("chose %d, want 30", got)
	}
}

func TestItPlaysWhenStopCardsClosedEveryRow(t *testing.T) {
	view := &nimmt.View{Variant: "pro", Hand: []int{50, 7}, Stops: []int{0, 1},
		Spaces: [][]int{{10, 0, 0, 0, 0}, {40, 0, 0, 0, 0}}}
	if got := (&StarterBot{}).ChooseTile(view); got != 7 {
		t.Errorf("chose %d, want 7 (the lowest: nothing is known of where a tile goes)", got)
	}
}
