// Command smoke plays the clients stage's script against a live referee over gRPC:
// create a Gang of Four table, take the seat that acts, list its legal moves, follow the
// watch stream, submit one move, see its update arrive, and read the typed refusal of a
// move out of turn. It prints one line per step and exits 1 at the first failure.
//
//	smoke 127.0.0.1:50051
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"referee.local/clients/go/client"
	refereev1 "referee.local/clients/go/referee/v1"
)

// callTimeout bounds every call (and the watch stream), so a broken server fails fast.
const callTimeout = 10 * time.Second

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: smoke GRPC_ADDRESS")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "FAILED:", err)
		os.Exit(1)
	}
}

// seat is one seat of one table: the token every call of that seat carries.
type seat struct {
	referee refereev1.RefereeServiceClient
	gameID  string
	token   string
}

// call returns a context for one call of this seat: its token and a deadline.
func (s seat) call() (context.Context, context.CancelFunc) {
	return context.WithTimeout(client.WithToken(context.Background(), s.token), callTimeout)
}

func run(address string) error {
	// WithInsecure: the referee serves plaintext gRPC; grpc 1.33 (Debian's) has no
	// credentials/insecure package yet.
	conn, err := grpc.Dial(address, grpc.WithInsecure())
	if err != nil {
		return err
	}
	defer conn.Close()
	referee := refereev1.NewRefereeServiceClient(conn)

	table, err := createGame(referee)
	if err != nil {
		return err
	}
	player, err := seatToAct(referee, table)
	if err != nil {
		return err
	}
	legal, err := listLegalMoves(player)
	if err != nil {
		return err
	}
	watchCtx, closeWatch := player.call()
	defer closeWatch()
	watch, err := player.referee.WatchGame(watchCtx, &refereev1.WatchGameRequest{
		GameId: player.gameID, AfterVersion: &legal.Version,
	})
	if err != nil {
		return fmt.Errorf("WatchGame: %w", err)
	}
	fmt.Printf("watch: open after version %d\n", legal.Version)
	move := legal.Moves[0]
	version, err := submit(player, move, legal.Version)
	if err != nil {
		return err
	}
	if err := awaitUpdate(watch, version); err != nil {
		return err
	}
	if err := expectRefusal(player, move); err != nil {
		return err
	}
	closeWatch()
	fmt.Println("watch: closed")
	return nil
}

func createGame(referee refereev1.RefereeServiceClient) (*refereev1.CreateGameResponse, error) {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	table, err := referee.CreateGame(ctx, &refereev1.CreateGameRequest{Game: "gang_of_four", Seats: 4})
	if err != nil {
		return nil, fmt.Errorf("CreateGame: %w", err)
	}
	if len(table.SeatTokens) != 4 {
		return nil, fmt.Errorf("CreateGame: %d seat tokens, want 4", len(table.SeatTokens))
	}
	fmt.Printf("create game: %s with %d seat tokens\n", table.GameId, len(table.SeatTokens))
	return table, nil
}

// seatToAct asks seat 0's view who acts first (the holder of the multicoloured 1) and
// returns that seat.
func seatToAct(referee refereev1.RefereeServiceClient, table *refereev1.CreateGameResponse) (seat, error) {
	first := seat{referee, table.GameId, table.SeatTokens[0].Token}
	ctx, cancel := first.call()
	defer cancel()
	reply, err := referee.GetView(ctx, &refereev1.GetViewRequest{GameId: table.GameId})
	if err != nil {
		return seat{}, fmt.Errorf("GetView: %w", err)
	}
	toAct := reply.GetView().GetToAct()
	if len(toAct) == 0 || int(toAct[0]) >= len(table.SeatTokens) {
		return seat{}, fmt.Errorf("GetView: to_act %v names no seat", toAct)
	}
	fmt.Printf("get view: seat %d acts\n", toAct[0])
	return seat{referee, table.GameId, table.SeatTokens[toAct[0]].Token}, nil
}

func listLegalMoves(player seat) (*refereev1.ListLegalMovesResponse, error) {
	ctx, cancel := player.call()
	defer cancel()
	legal, err := player.referee.ListLegalMoves(ctx, &refereev1.ListLegalMovesRequest{GameId: player.gameID})
	if err != nil {
		return nil, fmt.Errorf("ListLegalMoves: %w", err)
	}
	if len(legal.Moves) == 0 {
		return nil, errors.New("ListLegalMoves: no moves")
	}
	fmt.Printf("list legal moves: %d moves at version %d\n", len(legal.Moves), legal.Version)
	return legal, nil
}

// submit plays move at expectedVersion and returns the version it made.
func submit(player seat, move *refereev1.Move, expectedVersion int64) (int64, error) {
	ctx, cancel := player.call()
	defer cancel()
	reply, err := player.referee.SubmitMove(ctx, &refereev1.SubmitMoveRequest{
		GameId:          player.gameID,
		ClientMoveId:    fmt.Sprintf("smoke-%d", time.Now().UnixNano()),
		Move:            move,
		ExpectedVersion: &expectedVersion,
	})
	if err != nil {
		return 0, fmt.Errorf("SubmitMove: %w", err)
	}
	fmt.Printf("submit move: version %d\n", reply.Version)
	return reply.Version, nil
}

// awaitUpdate reads the watch stream up to the update of version.
func awaitUpdate(watch refereev1.RefereeService_WatchGameClient, version int64) error {
	for {
		update, err := watch.Recv()
		if err != nil {
			return fmt.Errorf("WatchGame: %w before version %d", err, version)
		}
		if update.Version > version {
			return fmt.Errorf("WatchGame: version %d skipped (got %d)", version, update.Version)
		}
		if update.Version == version {
			fmt.Printf("watch: update version %d, to_act %v\n", update.Version, update.GetView().GetToAct())
			return nil
		}
	}
}

// expectRefusal submits move again (now out of turn) under a new client_move_id and
// checks that the referee refuses it with FAILED_PRECONDITION and an ErrorInfo reason.
func expectRefusal(player seat, move *refereev1.Move) error {
	ctx, cancel := player.call()
	defer cancel()
	_, err := player.referee.SubmitMove(ctx, &refereev1.SubmitMoveRequest{
		GameId:       player.gameID,
		ClientMoveId: fmt.Sprintf("smoke-again-%d", time.Now().UnixNano()),
		Move:         move,
	})
	if err == nil {
		return errors.New("SubmitMove out of turn: accepted, want a refusal")
	}
	code, reason := status.Code(err), client.Reason(err)
	if code != codes.FailedPrecondition || reason == "" {
		return fmt.Errorf("SubmitMove out of turn: %v (reason %q), want FailedPrecondition with a reason", err, reason)
	}
	fmt.Printf("refusal: %v %s\n", code, reason)
	return nil
}
