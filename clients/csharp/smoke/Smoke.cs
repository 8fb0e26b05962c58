// The clients stage's smoke script, played against a live referee's HTTP/JSON face with the
// public API of src/ only:  mono Smoke.exe HTTP_URL
using System;
using System.Threading;
using System.Threading.Tasks;
using Referee.Client;

static class Smoke
{
    static readonly TimeSpan Deadline = TimeSpan.FromSeconds(10);

    static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: mono Smoke.exe HTTP_URL");
            return 2;
        }
        try
        {
            PlayAsync(args[0]).GetAwaiter().GetResult();
            return 0;
        }
        catch (Exception e)
        {
            Console.Error.WriteLine("FAILED: " + e);
            return 1;
        }
    }

    static async Task PlayAsync(string httpUrl)
    {
        using (var referee = new RefereeClient(httpUrl) { Timeout = Deadline })
        {
            var game = await referee.CreateGameAsync("gang_of_four", 4);
            Check(game.GameId != "" && game.SeatTokens.Count == 4, "a game id and 4 seat tokens");
            Console.WriteLine($"1 CreateGame: game {game.GameId}, {game.SeatTokens.Count} seat tokens");

            var view = await referee.WithToken(game.TokenOf(0)).GetViewAsync(game.GameId);
            Check(view.Seat == 0 && view.ToAct.Count == 1, "seat 0's view naming one seat to act");
            int seat = view.ToAct[0];
            Console.WriteLine($"2 GetView (seat 0): to_act [{string.Join(", ", view.ToAct)}], playing seat {seat}");

            var player = referee.WithToken(game.TokenOf(seat));
            var legal = await player.ListLegalMovesAsync(game.GameId);
            Check(legal.Moves.Count > 0 && legal.Version == 0, "legal moves at version 0");
            Console.WriteLine($"3 ListLegalMoves: {legal.Moves.Count} moves at version {legal.Version}, first {Json.Write(legal.Moves[0])}");

            using (var watch = player.WatchGame(game.GameId, legal.Version))
            {
                Console.WriteLine($"4 WatchGame: started after version {legal.Version}");

                var reply = await player.SubmitMoveAsync(game.GameId, legal.Moves[0], NewMoveId(), legal.Version);
                Check(reply.Version == legal.Version + 1, "the move's version is one more");
                Console.WriteLine($"5 SubmitMove: version {reply.Version}");

                var update = await NextUpdateAt(watch, reply.Version);
                Console.WriteLine($"6 WatchGame update: version {update.Version}, to_act [{string.Join(", ", update.View.ToAct)}]");

                var refusal = await RefusalOf(player.SubmitMoveAsync(game.GameId, legal.Moves[0], NewMoveId()));
                Check(refusal.Code == "failed_precondition" && refusal.HttpStatus == 400 && refusal.Reason != "",
                    $"FAILED_PRECONDITION with a reason, got {refusal.Code} (HTTP {refusal.HttpStatus}) '{refusal.Reason}'");
                Console.WriteLine($"7 SubmitMove again: refused {refusal.Code} (HTTP {refusal.HttpStatus}), reason {refusal.Reason}");
            }
            Console.WriteLine("8 WatchGame: closed");
        }
    }

    static string NewMoveId() => "smoke-" + Guid.NewGuid().ToString("N");

    static async Task<GameUpdate> NextUpdateAt(GameWatch watch, long version)
    {
        using (var deadline = new CancellationTokenSource(Deadline))
        {
            while (true)
            {
                var update = await watch.NextAsync(deadline.Token);
                Check(update != null, $"the stream to bring version {version}");
                if (update.Version == version) return update;
            }
        }
    }

    static async Task<RefereeException> RefusalOf(Task call)
    {
        try
        {
            await call;
        }
        catch (RefereeException refusal)
        {
            return refusal;
        }
        throw new Exception("the move was accepted; expected a refusal");
    }

    static void Check(bool passed, string expected)
    {
        if (!passed) throw new Exception("expected " + expected);
    }
}
