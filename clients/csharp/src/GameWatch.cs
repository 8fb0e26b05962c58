using System;
using System.IO;
using System.Net.Http;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Referee.Client
{
    /// <summary>
    /// A WatchGame stream (a Connect server stream). Read updates with <see cref="NextAsync"/>
    /// one at a time, from one reader; Dispose closes the stream.
    /// </summary>
    public sealed class GameWatch : IDisposable
    {
        readonly CancellationTokenSource closing = new CancellationTokenSource();
        readonly Task<HttpResponseMessage> responding;
        volatile HttpResponseMessage response;
        Stream body;
        bool ended;

        // send: the request, started now, cancelled by Dispose.
        internal GameWatch(Func<CancellationToken, Task<HttpResponseMessage>> send)
        {
            responding = send(closing.Token);
        }

        /// <summary>
        /// The next update; null once the stream has ended normally (a finished game's
        /// final version was sent, or the referee closed it) or the watch was disposed.
        /// Throws RefereeException for the error that ended the stream ("unavailable" for a
        /// dropped connection: watch again with the last version you received), and
        /// OperationCanceledException when the token is cancelled, which closes the watch.
        /// </summary>
        public async Task<GameUpdate> NextAsync(CancellationToken cancellationToken = default)
        {
            if (ended) return null;
            ConnectFrames.Frame frame = null;
            Exception failure = null;
            // Not every runtime's HTTP stream honours a token mid-read; closing the response does.
            using (cancellationToken.Register(Dispose))
            {
                try
                {
                    if (body == null) await OpenAsync().ConfigureAwait(false);
                    frame = await ConnectFrames.ReadAsync(body, cancellationToken).ConfigureAwait(false);
                }
                catch (Exception e) when (IsConnectionFailure(e))
                {
                    failure = e;
                }
            }
            cancellationToken.ThrowIfCancellationRequested();
            if (closing.IsCancellationRequested) return null; // its owner disposed the watch
            if (frame == null)
            {
                Dispose();
                throw new RefereeException("unavailable", failure == null
                    ? "the watch stream ended without its end-of-stream message"
                    : "the watch stream broke: " + failure.Message, inner: failure);
            }
            return Read(frame);
        }

        // What closing the connection (ours or the network's) makes the read throw.
        static bool IsConnectionFailure(Exception e) =>
            e is IOException || e is HttpRequestException || e is ObjectDisposedException
            || e is OperationCanceledException;

        // The referee sends the response headers with the first update, so this waits for it.
        async Task OpenAsync()
        {
            response = await responding.ConfigureAwait(false);
            // Dispose may have run while the response was on its way: it could not close it then.
            if (closing.IsCancellationRequested)
            {
                response.Dispose();
                throw new ObjectDisposedException(nameof(GameWatch));
            }
            if (!response.IsSuccessStatusCode)
            {
                var error = await RefereeClient.ErrorOf(response).ConfigureAwait(false);
                Dispose();
                throw error;
            }
            body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false);
        }

        GameUpdate Read(ConnectFrames.Frame frame)
        {
            if ((frame.Flags & ConnectFrames.Compressed) != 0)
                throw new RefereeException("internal", "a compressed frame, though no compression was asked for");
            var message = Json.ParseObject(Encoding.UTF8.GetString(frame.Payload));
            if ((frame.Flags & ConnectFrames.EndStream) == 0) return new GameUpdate(message);
            int status = (int)response.StatusCode;
            Dispose();
            var error = message.GetObject("error");
            if (error != null) throw RefereeException.FromError(error, status);
            return null;
        }

        public void Dispose()
        {
            ended = true;
            closing.Cancel();
            response?.Dispose();
        }
    }

    /// <summary>
    /// Connect's stream framing: each message is 1 flag byte, a 4-byte big-endian length and
    /// the JSON; the last frame of a response has the end-of-stream flag.
    /// </summary>
    static class ConnectFrames
    {
        public const byte Compressed = 0x01, EndStream = 0x02;
        // A bound on one message, so a garbled length cannot allocate gigabytes.
        const int MaxLength = 64 << 20;

        public sealed class Frame
        {
            public byte Flags;
            public byte[] Payload;
        }

        public static byte[] Encode(string json)
        {
            byte[] payload = Encoding.UTF8.GetBytes(json);
            var frame = new byte[5 + payload.Length];
            WriteBigEndian(frame, 1, payload.Length);
            Array.Copy(payload, 0, frame, 5, payload.Length);
            return frame;
        }

        /// <summary>The next frame, or null when the stream ends cleanly between frames.</summary>
        public static async Task<Frame> ReadAsync(Stream stream, CancellationToken cancellationToken)
        {
            var header = new byte[5];
            int got = await ReadFullyAsync(stream, header, cancellationToken).ConfigureAwait(false);
            if (got == 0) return null;
            if (got < header.Length) throw new IOException("the stream ended inside a frame header");
            int length = (header[1] << 24) | (header[2] << 16) | (header[3] << 8) | header[4];
            if (length < 0 || length > MaxLength) throw new RefereeException("internal", $"a frame of {(uint)length} bytes");
            var payload = new byte[length];
            if (await ReadFullyAsync(stream, payload, cancellationToken).ConfigureAwait(false) < length)
                throw new IOException("the stream ended inside a frame");
            return new Frame { Flags = header[0], Payload = payload };
        }

        // Reads until the buffer is full or the stream ends; returns the bytes read.
        static async Task<int> ReadFullyAsync(Stream stream, byte[] buffer, CancellationToken cancellationToken)
        {
            int filled = 0;
            while (filled < buffer.Length)
            {
                int read = await stream.ReadAsync(buffer, filled, buffer.Length - filled, cancellationToken)
                    .ConfigureAwait(false);
                if (read == 0) break;
                filled += read;
            }
            return filled;
        }

        static void WriteBigEndian(byte[] target, int offset, int value)
        {
            target[offset] = (byte)(value >> 24);
            target[offset + 1] = (byte)(value >> 16);
            target[offset + 2] = (byte)(value >> 8);
            target[offset + 3] = (byte)value;
        }
    }
}
