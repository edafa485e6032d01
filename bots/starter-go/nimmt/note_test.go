package nimmt

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestANoteIsCutBetweenCharactersAndItsValuesAreBounded(t *testing.T) {
	note := &Note{Text: strings.Repeat("\u2192", 400), Values: []float64{1, math.Inf(1), 2, 3}}
	text, values := bounded(note, 3)
	if len(text) != 999 || !utf8.ValidString(text) {
		t.Errorf("cut to %d bytes (valid: %v), want 999 valid bytes", len(text), utf8.ValidString(text))
	}
	if len(values) != 3 || values[0] != 1 || !math.IsNaN(values[1]) || values[2] != 2 {
		t.Errorf("values %v, want [1 NaN 2]", values)
	}
	if CutUTF8("ab\xff", 10) != "ab\uFFFD" {
		t.Errorf("invalid UTF-8 is not replaced: %q", CutUTF8("ab\xff", 10))
	}
}

func TestAKitBotsNoteIsTakenOnce(t *testing.T) {
	bot := &KitBot{}
	view := &View{Legal: []Decision{PlayTile{3}, PlayTile{40}}}
	bot.Annotate("40 is safe", TileValues(view, map[int]float64{40: 1.5}))
	note := bot.TakeNote()
	if note == nil || note.Text != "40 is safe" || !math.IsNaN(note.Values[0]) || note.Values[1] != 1.5 {
		t.Fatalf("note %+v", note)
	}
	if bot.TakeNote() != nil {
		t.Error("the note was kept after it was taken")
	}
}
