// Typed views of the referee's answers (proto/referee/v1/referee.proto, game.proto), read
// from their proto3 JSON. Each keeps the whole parsed answer in Raw: the game-specific parts
// (View's "gangOfFour", "theGang", "pinched"; events; moves) stay JSON objects, to read with
// JsonFields and to send back unchanged.
using System.Collections.Generic;

namespace Referee.Client
{
    /// <summary>CreateGameResponse.</summary>
    public sealed class CreatedGame
    {
        public string GameId { get; }
        /// <summary>0 for a fresh deal; every accepted move adds one.</summary>
        public long Version { get; }
        /// <summary>Hex sha256 commitment of the seed, revealed once the game is over.</summary>
        public string SeedSha256 { get; }
        /// <summary>One per seat returned (not the open ones), in seat order. Hand each to its player only.</summary>
        public IReadOnlyList<SeatToken> SeatTokens { get; }
        /// <summary>The table admin's token (LobbyService), holding no seat.</summary>
        public string AdminToken { get; }
        public Dictionary<string, object> Raw { get; }

        public CreatedGame(Dictionary<string, object> answer)
        {
            Raw = answer;
            GameId = answer.GetString("gameId");
            Version = answer.GetInt64("version");
            SeedSha256 = answer.GetString("seedSha256");
            AdminToken = answer.GetString("adminToken");
            var tokens = new List<SeatToken>();
            foreach (object token in answer.GetList("seatTokens"))
                tokens.Add(new SeatToken((Dictionary<string, object>)token));
            SeatTokens = tokens;
        }

        /// <summary>The token of one seat; throws KeyNotFoundException when it was not returned.</summary>
        public string TokenOf(int seat)
        {
            foreach (var token in SeatTokens)
                if (token.Seat == seat) return token.Token;
            throw new KeyNotFoundException($"no token for seat {seat}");
        }
    }

    public sealed class SeatToken
    {
        public int Seat { get; }
        public string Token { get; }

        public SeatToken(Dictionary<string, object> fields)
        {
            Seat = fields.GetInt32("seat");
            Token = fields.GetString("token");
        }
    }

    /// <summary>View: what one seat (or a spectator) may know of the table at one version.</summary>
    public sealed class GameView
    {
        public string Game { get; }
        public string GameId { get; }
        public long Version { get; }
        /// <summary>Your seat; null for a spectator.</summary>
        public int? Seat { get; }
        public int Seats { get; }
        /// <summary>The seats that may act now; empty once the game is over.</summary>
        public IReadOnlyList<int> ToAct { get; }
        /// <summary>Set once the game is over: "winners", "summary", "scores", "placings", ...</summary>
        public Dictionary<string, object> Outcome { get; }
        /// <summary>Table.status: "TABLE_STATUS_OPEN", "_LIVE", "_FINISHED" or "_ABORTED".</summary>
        public string TableStatus { get; }
        public Dictionary<string, object> Raw { get; }

        public GameView(Dictionary<string, object> view)
        {
            Raw = view;
            Game = view.GetString("game");
            GameId = view.GetString("gameId");
            Version = view.GetInt64("version");
            // An optional field: present (even as 0) for a seat, absent for a spectator.
            Seat = view.ContainsKey("seat") ? view.GetInt32("seat") : (int?)null;
            Seats = view.GetInt32("seats");
            ToAct = view.GetInt32List("toAct");
            Outcome = view.GetObject("outcome");
            var table = view.GetObject("table");
            TableStatus = table == null ? "" : table.GetString("status");
        }

        /// <summary>No move will be accepted any more: finished (Outcome set) or aborted by the table admin.</summary>
        public bool IsOver => Outcome != null || TableStatus == "TABLE_STATUS_ABORTED";

        /// <summary>This view's game-specific part, e.g. GamePart("gangOfFour")["cards"].</summary>
        public Dictionary<string, object> GamePart(string name) => Raw.GetObject(name);
    }

    /// <summary>ListLegalMovesResponse.</summary>
    public sealed class LegalMoves
    {
        /// <summary>The version the list was computed at: pass it as expectedVersion.</summary>
        public long Version { get; }
        /// <summary>Moves as JSON objects, e.g. {"gangOfFour": {"play": {...}}}: submit one unchanged.</summary>
        public IReadOnlyList<Dictionary<string, object>> Moves { get; }

        public Dictionary<string, object> Raw { get; }

        public LegalMoves(Dictionary<string, object> answer)
        {
            Raw = answer;
            Version = answer.GetInt64("version");
            Moves = answer.GetList("moves").ConvertAll(move => (Dictionary<string, object>)move);
        }
    }

    /// <summary>SubmitMoveResponse.</summary>
    public sealed class MoveResult
    {
        /// <summary>The version this move produced.</summary>
        public long Version { get; }
        /// <summary>Your view right after the move.</summary>
        public GameView View { get; }
        /// <summary>The events the move caused, as JSON objects.</summary>
        public List<object> Events { get; }
        /// <summary>True when this clientMoveId had been applied before: this is its first result.</summary>
        public bool Duplicate { get; }

        public Dictionary<string, object> Raw { get; }

        public MoveResult(Dictionary<string, object> answer)
        {
            Raw = answer;
            Version = answer.GetInt64("version");
            View = new GameView(answer.GetObject("view") ?? new Dictionary<string, object>());
            Events = answer.GetList("events");
            Duplicate = answer.GetBool("duplicate");
        }
    }

    /// <summary>WatchGameResponse: one per version.</summary>
    public sealed class GameUpdate
    {
        /// <summary>The version this update brings you to.</summary>
        public long Version { get; }
        /// <summary>Your view at Version.</summary>
        public GameView View { get; }
        /// <summary>What the move that made Version caused; empty for a snapshot.</summary>
        public List<object> Events { get; }
        /// <summary>True for a snapshot of the current view rather than one move's update.</summary>
        public bool Snapshot { get; }

        public Dictionary<string, object> Raw { get; }

        public GameUpdate(Dictionary<string, object> message)
        {
            Raw = message;
            Version = message.GetInt64("version");
            View = new GameView(message.GetObject("view") ?? new Dictionary<string, object>());
            Events = message.GetList("events");
            Snapshot = message.GetBool("snapshot");
        }
    }
}
