package nimmt

import (
	"fmt"

	nimmtv1 "nimmt-arena/bot/nimmt/v1"
)

// DecisionKind is what a decision is about.
type DecisionKind int

// The decision kinds (RULES.md 6).
const (
	KindTile    DecisionKind = 1 // choose a tile (all seats at once)
	KindLuck    DecisionKind = 2 // place a drawn luck card
	KindAction  DecisionKind = 3 // play an action card on the own tile, or none
	KindTakeRow DecisionKind = 4 // card game: choose a row to take
)

func (k DecisionKind) String() string {
	switch k {
	case KindTile:
		return "tile"
	case KindLuck:
		return "luck"
	case KindAction:
		return "action"
	case KindTakeRow:
		return "take_row"
	}
	return fmt.Sprintf("DecisionKind(%d)", int(k))
}

// Decision is one of PlayTile, PlaceLuck, PlayAction and TakeRow. Its String is the engine's
// text form ("tile 37", "luck 2 4", "action none", "action stop row=3", "take_row 1"), so two
// decisions are the same when their texts are.
type Decision interface {
	Kind() DecisionKind
	String() string
}

// PlayTile chooses the tile to reveal this turn; it must be in the hand.
type PlayTile struct{ Tile int }

// PlaceLuck puts the drawn luck card on a free space (0-based row and space).
type PlaceLuck struct{ Row, Space int }

// PlayAction plays an action card on the own tile about to be placed; Card "" declines.
// Row is the target of stop, front, ascending and anywhere; NewTile the tile from hand for
// swap and another (nil when unused).
type PlayAction struct {
	Card    string
	Row     *int
	NewTile *int
}

// TakeRow takes a row (card game, a tile lower than every row's end).
type TakeRow struct{ Row int }

func (PlayTile) Kind() DecisionKind   { return KindTile }
func (PlaceLuck) Kind() DecisionKind  { return KindLuck }
func (PlayAction) Kind() DecisionKind { return KindAction }
func (TakeRow) Kind() DecisionKind    { return KindTakeRow }

func (d PlayTile) String() string  { return fmt.Sprintf("tile %d", d.Tile) }
func (d PlaceLuck) String() string { return fmt.Sprintf("luck %d %d", d.Row, d.Space) }
func (d TakeRow) String() string   { return fmt.Sprintf("take_row %d", d.Row) }
func (d PlayAction) String() string {
	if d.Card == "" {
		return "action none"
	}
	text := "action " + d.Card
	if d.Row != nil {
		text += fmt.Sprintf(" row=%d", *d.Row)
	}
	if d.NewTile != nil {
		text += fmt.Sprintf(" new_tile=%d", *d.NewTile)
	}
	return text
}

// Choice is a decision already taken this turn by some seat (public).
type Choice struct {
	Seat    int
	Kind    DecisionKind
	Card    string // luck: the card placed; action: the card played ("" for none)
	Tile    *int   // action: the revealed tile it was played on
	Row     *int   // luck: the row of the space; action: the target row; take_row: the row
	Space   *int   // luck: the space within the row
	NewTile *int   // action: the tile from hand (swap, another)
}

// Pending is the decision the game waits for.
type Pending struct {
	Kind  DecisionKind
	Seats []int  // who must still answer
	Tile  *int   // the tile about to be placed (action, take row)
	Card  string // the luck card to place (luck): "plus5" or "final10"
}

// Placement is a revealed tile waiting to be placed.
type Placement struct{ Tile, Seat int }

// View is everything a seat may know (the engine's Observation): the only thing a bot sees.
// Rows, spaces and seats count from 0; tiles are their printed numbers.
type View struct {
	Variant        string     // "basic", "basic+luck", "pro", "pro+luck" or "classic"
	Seat           int        // the seat this view belongs to
	Players        int        // number of players
	Turn           int        // the current turn, from 1
	SetNumber      int        // 1, or 2 in the second set of a 2-3 player game
	Layout         []string   // the board, one string per row, one character per space (".+-FDAC")
	Spaces         [][]int    // per row, per space: the tile on it, 0 empty, -1 skipped
	Markers        [][]string // per row, per space: the luck card on it, "" if none
	Stops          []int      // rows closed by a Stop card until the end of this turn
	Hand           []int      // this seat's tiles, ascending
	ActionCards    []string   // this seat's action cards ("stop", "swap", ...), in the order drawn
	Chosen         *int       // the tile this seat has chosen this turn, before the reveal
	Scores         []int      // every seat's score (card game: penalty points so far)
	HandSizes      []int      // every seat's hand size
	ActionCounts   []int      // how many action cards each seat holds
	History        [][]int    // the tiles revealed in each turn so far, per seat (0: none)
	Choices        []Choice   // this turn's other decisions so far
	ToPlace        []Placement
	SupplySize     int
	LuckDeckSize   int
	ActionDeckSize int
	Pending        *Pending   // the decision under way; nil once the game is over
	Legal          []Decision // this seat's legal options now, in the engine's order
}

// IsLegal tells whether decision is one of the view's legal options.
func (v *View) IsLegal(decision Decision) bool {
	text := decision.String()
	for _, option := range v.Legal {
		if option.String() == text {
			return true
		}
	}
	return false
}

var luckNames = map[nimmtv1.LuckCard]string{
	nimmtv1.LuckCard_LUCK_CARD_PLUS5:   "plus5",
	nimmtv1.LuckCard_LUCK_CARD_FINAL10: "final10",
}

var actionNames = map[nimmtv1.ActionCard]string{
	nimmtv1.ActionCard_ACTION_CARD_STOP:      "stop",
	nimmtv1.ActionCard_ACTION_CARD_SWAP:      "swap",
	nimmtv1.ActionCard_ACTION_CARD_SKIP:      "skip",
	nimmtv1.ActionCard_ACTION_CARD_FRONT:     "front",
	nimmtv1.ActionCard_ACTION_CARD_ASCENDING: "ascending",
	nimmtv1.ActionCard_ACTION_CARD_ANYWHERE:  "anywhere",
	nimmtv1.ActionCard_ACTION_CARD_ANOTHER:   "another",
	nimmtv1.ActionCard_ACTION_CARD_PLUS5:     "plus5",
}

var actionCards = func() map[string]nimmtv1.ActionCard {
	cards := map[string]nimmtv1.ActionCard{}
	for card, name := range actionNames {
		cards[name] = card
	}
	return cards
}()

func ints[T ~int32 | ~uint32](values []T) []int {
	out := make([]int, len(values))
	for i, v := range values {
		out[i] = int(v)
	}
	return out
}

func optional(value *uint32) *int {
	if value == nil {
		return nil
	}
	v := int(*value)
	return &v
}

// viewFromProto is the native view of an Observation message.
func viewFromProto(m *nimmtv1.Observation) (*View, error) {
	view := &View{
		Variant:        m.GetVariant(),
		Seat:           int(m.GetSeat()),
		Players:        int(m.GetPlayers()),
		Turn:           int(m.GetTurn()),
		SetNumber:      int(m.GetSetNumber()),
		Layout:         append([]string{}, m.GetLayout()...),
		Stops:          ints(m.GetStops()),
		Hand:           ints(m.GetHand()),
		Chosen:         optional(m.Chosen),
		Scores:         ints(m.GetScores()),
		HandSizes:      ints(m.GetHandSizes()),
		ActionCounts:   ints(m.GetActionCounts()),
		SupplySize:     int(m.GetSupplySize()),
		LuckDeckSize:   int(m.GetLuckDeckSize()),
		ActionDeckSize: int(m.GetActionDeckSize()),
	}
	for _, row := range m.GetSpaces() {
		view.Spaces = append(view.Spaces, ints(row.GetTiles()))
		view.Markers = append(view.Markers, make([]string, len(row.GetTiles())))
	}
	for _, marker := range m.GetMarkers() {
		row, space := int(marker.GetRow()), int(marker.GetSpace())
		if row >= len(view.Markers) || space >= len(view.Markers[row]) {
			return nil, fmt.Errorf("a luck card marker at row %d, space %d is off the board", row, space)
		}
		name, ok := luckNames[marker.GetCard()]
		if !ok {
			return nil, fmt.Errorf("unknown luck card number %d at row %d, space %d", marker.GetCard(), row, space)
		}
		view.Markers[row][space] = name
	}
	for _, card := range m.GetActionCards() {
		name, ok := actionNames[card]
		if !ok {
			return nil, fmt.Errorf("unknown action card number %d in the hand", card)
		}
		view.ActionCards = append(view.ActionCards, name)
	}
	for _, plays := range m.GetHistory() {
		view.History = append(view.History, ints(plays.GetTiles()))
	}
	for _, c := range m.GetChoices() {
		choice := Choice{
			Seat: int(c.GetSeat()), Kind: DecisionKind(c.GetKind()),
			Tile: optional(c.Tile), Row: optional(c.Row), Space: optional(c.Space),
			NewTile: optional(c.NewTile),
		}
		if choice.Kind == KindLuck {
			choice.Card = luckNames[c.GetLuckCard()]
		} else if choice.Kind == KindAction {
			choice.Card = actionNames[c.GetActionCard()]
		}
		view.Choices = append(view.Choices, choice)
	}
	for _, p := range m.GetToPlace() {
		view.ToPlace = append(view.ToPlace, Placement{int(p.GetTile()), int(p.GetSeat())})
	}
	if p := m.GetPending(); p != nil {
		view.Pending = &Pending{
			Kind: DecisionKind(p.GetKind()), Seats: ints(p.GetSeats()), Tile: optional(p.Tile),
			Card: luckNames[p.GetCard()],
		}
	}
	for _, d := range m.GetLegal() {
		decision, err := decisionFromProto(d)
		if err != nil {
			return nil, err
		}
		view.Legal = append(view.Legal, decision)
	}
	return view, nil
}

func decisionFromProto(m *nimmtv1.Decision) (Decision, error) {
	switch d := m.GetDecision().(type) {
	case *nimmtv1.Decision_Tile:
		return PlayTile{int(d.Tile.GetTile())}, nil
	case *nimmtv1.Decision_Luck:
		return PlaceLuck{int(d.Luck.GetRow()), int(d.Luck.GetSpace())}, nil
	case *nimmtv1.Decision_TakeRow:
		return TakeRow{int(d.TakeRow.GetRow())}, nil
	case *nimmtv1.Decision_Action:
		action := PlayAction{Row: optional(d.Action.Row), NewTile: optional(d.Action.NewTile)}
		if card := d.Action.GetCard(); card != nimmtv1.ActionCard_ACTION_CARD_NONE {
			name, ok := actionNames[card]
			if !ok {
				return nil, fmt.Errorf("unknown action card number %d", card)
			}
			action.Card = name
		}
		return action, nil
	}
	return nil, fmt.Errorf("a decision holds none of tile, luck, action, take_row")
}

func uint32Ptr(value *int) *uint32 {
	if value == nil {
		return nil
	}
	v := uint32(*value)
	return &v
}

// decisionToProto is the protocol message of a decision.
func decisionToProto(decision Decision) (*nimmtv1.Decision, error) {
	switch d := decision.(type) {
	case PlayTile:
		return &nimmtv1.Decision{Decision: &nimmtv1.Decision_Tile{Tile: &nimmtv1.PlayTile{Tile: uint32(d.Tile)}}}, nil
	case PlaceLuck:
		luck := &nimmtv1.PlaceLuck{Row: uint32(d.Row), Space: uint32(d.Space)}
		return &nimmtv1.Decision{Decision: &nimmtv1.Decision_Luck{Luck: luck}}, nil
	case TakeRow:
		take := &nimmtv1.TakeRow{Row: uint32(d.Row)}
		return &nimmtv1.Decision{Decision: &nimmtv1.Decision_TakeRow{TakeRow: take}}, nil
	case PlayAction:
		action := &nimmtv1.PlayAction{Row: uint32Ptr(d.Row), NewTile: uint32Ptr(d.NewTile)}
		if d.Card != "" {
			card, ok := actionCards[d.Card]
			if !ok {
				return nil, fmt.Errorf("PlayAction with an unknown card %q", d.Card)
			}
			action.Card = card
		}
		return &nimmtv1.Decision{Decision: &nimmtv1.Decision_Action{Action: action}}, nil
	}
	return nil, fmt.Errorf("%T is not a decision (PlayTile, PlaceLuck, PlayAction or TakeRow)", decision)
}
