package nimmt

import (
	"math"
	"unicode/utf8"
)

// NoteBytes is the longest note the arena keeps, in bytes of UTF-8; MaxValues the most values.
const (
	NoteBytes = 1000
	MaxValues = 128
)

// Note is what a bot says it was thinking about one decision, for its owner's eyes only: a
// text, and one number per legal option in the order of View.Legal (math.NaN() for none). The
// site's viewer shows it to the bot's owner at that decision; `nimmt match` writes it to
// notes/game-00001.json. A note never causes a fault: the kit cuts the text to NoteBytes
// (between characters) and the values to MaxValues and to the number of options, and a value
// that is not finite counts as none.
type Note struct {
	Text   string
	Values []float64
}

// Annotator is a bot that may have a note on the decision it just made. KitBot is one: call
// its Annotate in a hook.
type Annotator interface {
	// TakeNote returns the note on the decision just made (nil if none) and forgets it.
	TakeNote() *Note
}

// Annotate keeps a note on the decision being made (a later call in the same hook replaces
// it): text, and values per legal option in the order of view.Legal (TileValues makes them
// from numbers per tile).
func (b *KitBot) Annotate(text string, values []float64) {
	b.note = &Note{Text: text, Values: values}
}

// TakeNote returns the note Annotate made for the decision just taken, and forgets it.
func (b *KitBot) TakeNote() *Note {
	note := b.note
	b.note = nil
	return note
}

// TileValues is values per legal option from numbers per tile: NaN for an option that is not a
// tile or has no number.
func TileValues(view *View, byTile map[int]float64) []float64 {
	values := make([]float64, len(view.Legal))
	for i, option := range view.Legal {
		values[i] = math.NaN()
		if tile, ok := option.(PlayTile); ok {
			if value, found := byTile[tile.Tile]; found {
				values[i] = value
			}
		}
	}
	return values
}

// CutUTF8 is text cut to at most limit bytes, never inside a character (invalid UTF-8 is
// replaced, as the protocol's strings must be valid).
func CutUTF8(text string, limit int) string {
	if !utf8.ValidString(text) {
		text = toValidUTF8(text)
	}
	if len(text) <= limit {
		return text
	}
	end := limit
	for end > 0 && !utf8.RuneStart(text[end]) {
		end--
	}
	return text[:end]
}

func toValidUTF8(text string) string {
	out := make([]rune, 0, len(text))
	for _, r := range text {
		out = append(out, r) // invalid bytes read as utf8.RuneError
	}
	return string(out)
}

// bounded is the note as the answer carries it: the text cut, at most one value per option
// (and MaxValues), NaN where a value is not finite.
func bounded(note *Note, options int) (string, []float64) {
	if note == nil {
		return "", nil
	}
	n := len(note.Values)
	if n > options {
		n = options
	}
	if n > MaxValues {
		n = MaxValues
	}
	values := make([]float64, n)
	for i := 0; i < n; i++ {
		values[i] = note.Values[i]
		if math.IsInf(values[i], 0) {
			values[i] = math.NaN()
		}
	}
	return CutUTF8(note.Text, NoteBytes), values
}
