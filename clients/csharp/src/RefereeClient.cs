using System;
using System.Collections.Generic;
using System.Globalization;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Referee.Client
{
    /// <summary>
    /// referee.v1.RefereeService over the referee's HTTP/JSON face (the Connect protocol):
    /// every call is a POST of proto3 JSON to {baseUrl}/referee.v1.RefereeService/Method,
    /// carrying one seat's token. Make one client per seat with <see cref="WithToken"/>;
    /// they share one HttpClient. Refusals throw <see cref="RefereeException"/>.
    /// </summary>
    public sealed class RefereeClient : IDisposable
    {
        /// <summary>
        /// This client's version: the referee release it belongs to (scripts/set_version.py
        /// sets it), sent as the User-Agent "referee-csharp/Version".
        /// </summary>
        public const string Version = "0.3.0";

        const string Service = "referee.v1.RefereeService/";
        const string JsonType = "application/json";
        const string StreamType = "application/connect+json";

        readonly HttpClient http;
        readonly bool ownsHttp;
        readonly string baseUrl;

        /// <summary>The seat token sent as "Authorization: Bearer"; null for a spectator or CreateGame.</summary>
        public string Token { get; }

        /// <summary>
        /// The deadline of each unary call (not of a watch: pass a CancellationToken to
        /// <see cref="GameWatch.NextAsync"/>). A call that overruns it throws
        /// RefereeException with Code "deadline_exceeded".
        /// </summary>
        public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(10);

        /// <param name="baseUrl">The referee's HTTP/JSON address, e.g. "http://127.0.0.1:8080".</param>
        /// <param name="token">A seat token, or null.</param>
        /// <param name="http">An HttpClient to share; the client makes (and disposes) its own when null.</param>
        public RefereeClient(string baseUrl, string token = null, HttpClient http = null)
            : this(baseUrl, token, http ?? new HttpClient { Timeout = System.Threading.Timeout.InfiniteTimeSpan }, http == null)
        {
        }

        RefereeClient(string baseUrl, string token, HttpClient http, bool ownsHttp)
        {
            if (string.IsNullOrEmpty(baseUrl)) throw new ArgumentException("baseUrl is empty", nameof(baseUrl));
            this.baseUrl = baseUrl.TrimEnd('/') + "/";
            Token = token;
            this.http = http;
            this.ownsHttp = ownsHttp;
        }

        /// <summary>A client for another seat (or a spectator, with null) sharing this one's HttpClient.</summary>
        public RefereeClient WithToken(string token) =>
            new RefereeClient(baseUrl, token, http, false) { Timeout = Timeout };

        public void Dispose()
        {
            if (ownsHttp) http.Dispose();
        }

        /// <summary>Creates a table with every seat taken: one token per seat, no token needed.</summary>
        public async Task<CreatedGame> CreateGameAsync(string game, int seats, bool allowSpectators = false,
            CancellationToken cancellationToken = default)
        {
            var request = new Dictionary<string, object> { ["game"] = game, ["seats"] = seats };
            if (allowSpectators) request["allowSpectators"] = true;
            return new CreatedGame(await CallAsync(Service + "CreateGame", request, cancellationToken).ConfigureAwait(false));
        }

        /// <summary>This seat's view of the table now.</summary>
        public async Task<GameView> GetViewAsync(string gameId, CancellationToken cancellationToken = default)
        {
            var answer = await CallAsync(Service + "GetView", GameRequest(gameId), cancellationToken).ConfigureAwait(false);
            return new GameView(answer.GetObject("view") ?? new Dictionary<string, object>());
        }

        /// <summary>Exactly the moves SubmitMoveAsync would accept from this seat now.</summary>
        public async Task<LegalMoves> ListLegalMovesAsync(string gameId, CancellationToken cancellationToken = default)
        {
            var answer = await CallAsync(Service + "ListLegalMoves", GameRequest(gameId), cancellationToken).ConfigureAwait(false);
            return new LegalMoves(answer);
        }

        /// <summary>
        /// Plays a move (a JSON object such as one of LegalMoves.Moves). Resending the same
        /// clientMoveId never applies the move twice. With expectedVersion, a game that has
        /// moved on refuses it ("aborted" VERSION_MISMATCH, Metadata["current_version"]).
        /// </summary>
        public async Task<MoveResult> SubmitMoveAsync(string gameId, IDictionary<string, object> move,
            string clientMoveId, long? expectedVersion = null, CancellationToken cancellationToken = default)
        {
            var request = GameRequest(gameId);
            request["move"] = move;
            request["clientMoveId"] = clientMoveId;
            if (expectedVersion.HasValue) request["expectedVersion"] = Int64Field(expectedVersion.Value);
            return new MoveResult(await CallAsync(Service + "SubmitMove", request, cancellationToken).ConfigureAwait(false));
        }

        /// <summary>
        /// Starts a watch: one update per version after afterVersion (a snapshot of the view
        /// now when null), then live ones. Read it with NextAsync (the referee answers with
        /// its first update, so connecting is part of the first read); dispose it to close it.
        /// After a dropped connection, watch again with the last version you received.
        /// </summary>
        public GameWatch WatchGame(string gameId, long? afterVersion = null)
        {
            var request = GameRequest(gameId);
            if (afterVersion.HasValue) request["afterVersion"] = Int64Field(afterVersion.Value);
            byte[] frame = ConnectFrames.Encode(Json.Write(request));
            return new GameWatch(closing => http.SendAsync(Post(Service + "WatchGame", frame, StreamType),
                HttpCompletionOption.ResponseHeadersRead, closing));
        }

        /// <summary>
        /// Any other unary call, e.g. CallAsync("referee.v1.RefereeService/GetHistory", request)
        /// or "referee.v1.LobbyService/JoinGame": the request and the answer as proto3 JSON objects.
        /// </summary>
        public Task<Dictionary<string, object>> CallAsync(string method, IDictionary<string, object> request,
            CancellationToken cancellationToken = default)
        {
            byte[] body = Encoding.UTF8.GetBytes(Json.Write(request));
            return WithDeadline(async token =>
            {
                var post = Post(method, body, JsonType);
                // The referee may then give up on an answer nobody waits for any more.
                post.Headers.Add("Connect-Timeout-Ms", Int64Field((long)Timeout.TotalMilliseconds));
                using (var response = await http.SendAsync(post, token).ConfigureAwait(false))
                {
                    if (!response.IsSuccessStatusCode) throw await ErrorOf(response).ConfigureAwait(false);
                    return Json.ParseObject(await ReadText(response).ConfigureAwait(false));
                }
            }, cancellationToken);
        }

        static Dictionary<string, object> GameRequest(string gameId) =>
            new Dictionary<string, object> { ["gameId"] = gameId };

        // proto3 JSON writes int64 as a string (a double cannot hold every int64).
        static string Int64Field(long value) => value.ToString(CultureInfo.InvariantCulture);

        HttpRequestMessage Post(string method, byte[] body, string contentType)
        {
            var request = new HttpRequestMessage(HttpMethod.Post, baseUrl + method);
            request.Content = new ByteArrayContent(body);
            request.Content.Headers.ContentType = new MediaTypeHeaderValue(contentType);
            request.Headers.Add("Connect-Protocol-Version", "1");
            request.Headers.UserAgent.Add(new ProductInfoHeaderValue("referee-csharp", Version));
            // Mono would otherwise wait for a "100 Continue" before sending the body.
            request.Headers.ExpectContinue = false;
            if (!string.IsNullOrEmpty(Token))
                request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", Token);
            return request;
        }

        // Runs one call under Timeout; maps its overrun and network failures to RefereeException,
        // so a caller handles every failure of a call in one catch.
        async Task<T> WithDeadline<T>(Func<CancellationToken, Task<T>> call, CancellationToken cancellationToken)
        {
            using (var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
            {
                deadline.CancelAfter(Timeout);
                try
                {
                    return await call(deadline.Token).ConfigureAwait(false);
                }
                catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
                {
                    throw new RefereeException("deadline_exceeded", $"no answer within {Timeout.TotalSeconds} s", inner: e);
                }
                catch (HttpRequestException e)
                {
                    throw new RefereeException("unavailable", e.InnerException?.Message ?? e.Message, inner: e);
                }
            }
        }

        internal static async Task<RefereeException> ErrorOf(HttpResponseMessage response) =>
            RefereeException.FromResponse((int)response.StatusCode, await ReadText(response).ConfigureAwait(false));

        // The referee's JSON is UTF-8 and its Content-Type names no charset.
        static async Task<string> ReadText(HttpResponseMessage response) =>
            Encoding.UTF8.GetString(await response.Content.ReadAsByteArrayAsync().ConfigureAwait(false));
    }
}
