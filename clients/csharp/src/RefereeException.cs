using System;
using System.Collections.Generic;
using System.Text;

namespace Referee.Client
{
    /// <summary>
    /// A call the referee refused (or could not be made). <see cref="Code"/> is the Connect
    /// code ("failed_precondition", "aborted", "not_found", "unauthenticated", ...; the
    /// gRPC status names in snake_case), <see cref="Reason"/> the stable reason from the
    /// google.rpc.ErrorInfo detail ("NOT_YOUR_TURN", "VERSION_MISMATCH", ...) to switch on.
    /// </summary>
    public sealed class RefereeException : Exception
    {
        const string ErrorInfoType = "google.rpc.ErrorInfo";

        /// <summary>The Connect error code, e.g. "failed_precondition".</summary>
        public string Code { get; }
        /// <summary>The HTTP status of the answer; 0 when there was none (network, deadline).</summary>
        public int HttpStatus { get; }
        /// <summary>ErrorInfo.reason, e.g. "NOT_YOUR_TURN"; "" when the error had no ErrorInfo.</summary>
        public string Reason { get; }
        /// <summary>ErrorInfo.domain: "referee.v1" for the referee's own errors.</summary>
        public string Domain { get; }
        /// <summary>ErrorInfo.metadata, e.g. "current_version" with VERSION_MISMATCH.</summary>
        public IReadOnlyDictionary<string, string> Metadata { get; }

        public RefereeException(string code, string message, int httpStatus = 0, string reason = "",
            string domain = "", IReadOnlyDictionary<string, string> metadata = null, Exception inner = null)
            : base(Describe(code, reason, message), inner)
        {
            Code = code;
            HttpStatus = httpStatus;
            Reason = reason ?? "";
            Domain = domain ?? "";
            Metadata = metadata ?? new Dictionary<string, string>();
        }

        static string Describe(string code, string reason, string message) =>
            string.IsNullOrEmpty(reason) ? $"{code}: {message}" : $"{code} {reason}: {message}";

        /// <summary>
        /// The error of a non-200 answer to a unary call (also handy with UnityWebRequest):
        /// its Connect JSON body, or, when the body is not one (a proxy's error page), the
        /// code the Connect protocol assigns to the HTTP status.
        /// </summary>
        public static RefereeException FromResponse(int httpStatus, string body)
        {
            Dictionary<string, object> error = null;
            try { error = Json.ParseObject(body ?? ""); }
            catch (FormatException) { }
            if (error == null || !(error.TryGetValue("code", out object code) && code is string))
                return new RefereeException(CodeOfHttpStatus(httpStatus), $"HTTP {httpStatus}: {Shorten(body)}", httpStatus);
            return FromError(error, httpStatus);
        }

        /// <summary>A Connect error object: {"code", "message", "details": [...]}.</summary>
        public static RefereeException FromError(IDictionary<string, object> error, int httpStatus)
        {
            string reason = "", domain = "";
            var metadata = new Dictionary<string, string>();
            foreach (object item in error.GetList("details"))
            {
                var detail = item as Dictionary<string, object>;
                if (detail == null || !IsErrorInfo(detail.GetString("type"))) continue;
                // A garbled detail must not hide the error itself: keep its code and message.
                try { ReadErrorInfo(detail, out reason, out domain, metadata); }
                catch (FormatException) { }
                break;
            }
            string code = error.GetString("code");
            return new RefereeException(code == "" ? "unknown" : code, error.GetString("message"),
                httpStatus, reason, domain, metadata);
        }

        static bool IsErrorInfo(string type) =>
            type == ErrorInfoType || type == "type.googleapis.com/" + ErrorInfoType;

        // The referee adds a decoded "debug" copy; other Connect servers send only the
        // base64 protobuf "value", so that is the fallback.
        static void ReadErrorInfo(Dictionary<string, object> detail, out string reason, out string domain,
            Dictionary<string, string> metadata)
        {
            var debug = detail.GetObject("debug");
            if (debug != null)
            {
                reason = debug.GetString("reason");
                domain = debug.GetString("domain");
                var fields = debug.GetObject("metadata");
                if (fields != null)
                    foreach (var field in fields) metadata[field.Key] = field.Value as string ?? "";
                return;
            }
            ErrorInfoDecoder.Decode(Base64(detail.GetString("value")), out reason, out domain, metadata);
        }

        // Connect writes base64 without padding, and may use the URL-safe alphabet.
        static byte[] Base64(string text)
        {
            string standard = text.Replace('-', '+').Replace('_', '/');
            return Convert.FromBase64String(standard.PadRight((standard.Length + 3) / 4 * 4, '='));
        }

        // The Connect protocol's mapping for answers that carry no Connect error body.
        static string CodeOfHttpStatus(int status)
        {
            switch (status)
            {
                case 400: return "internal";
                case 401: return "unauthenticated";
                case 403: return "permission_denied";
                case 404: return "unimplemented";
                case 429:
                case 502:
                case 503:
                case 504: return "unavailable";
                default: return "unknown";
            }
        }

        static string Shorten(string body)
        {
            if (string.IsNullOrEmpty(body)) return "(empty body)";
            return body.Length <= 200 ? body : body.Substring(0, 200) + "...";
        }
    }

    /// <summary>
    /// Reads a serialized google.rpc.ErrorInfo: reason = 1, domain = 2, and
    /// metadata = 3 (a map: repeated entries of key = 1, value = 2), all length-delimited.
    /// </summary>
    static class ErrorInfoDecoder
    {
        public static void Decode(byte[] bytes, out string reason, out string domain, Dictionary<string, string> metadata)
        {
            reason = domain = "";
            var reader = new ProtoReader(bytes);
            while (reader.Next(out int field, out int wireType))
            {
                if (wireType != ProtoReader.LengthDelimited) { reader.Skip(wireType); continue; }
                byte[] value = reader.ReadBytes();
                if (field == 1) reason = Encoding.UTF8.GetString(value);
                else if (field == 2) domain = Encoding.UTF8.GetString(value);
                else if (field == 3) AddEntry(value, metadata);
            }
        }

        static void AddEntry(byte[] entry, Dictionary<string, string> metadata)
        {
            string key = "", value = "";
            var reader = new ProtoReader(entry);
            while (reader.Next(out int field, out int wireType))
            {
                if (wireType != ProtoReader.LengthDelimited) { reader.Skip(wireType); continue; }
                string text = Encoding.UTF8.GetString(reader.ReadBytes());
                if (field == 1) key = text;
                else if (field == 2) value = text;
            }
            metadata[key] = value;
        }

        sealed class ProtoReader
        {
            public const int Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5;
            readonly byte[] bytes;
            int position;

            public ProtoReader(byte[] bytes) { this.bytes = bytes; }

            public bool Next(out int field, out int wireType)
            {
                field = wireType = 0;
                if (position >= bytes.Length) return false;
                ulong tag = ReadVarint();
                field = (int)(tag >> 3);
                wireType = (int)(tag & 7);
                return true;
            }

            public byte[] ReadBytes()
            {
                ulong length = ReadVarint();
                if (length > (ulong)(bytes.Length - position)) throw Truncated();
                var value = new byte[length];
                Array.Copy(bytes, position, value, 0, (int)length);
                position += (int)length;
                return value;
            }

            public void Skip(int wireType)
            {
                switch (wireType)
                {
                    case Varint: ReadVarint(); break;
                    case Fixed64: Advance(8); break;
                    case LengthDelimited: ReadBytes(); break;
                    case Fixed32: Advance(4); break;
                    default: throw new FormatException($"ErrorInfo: unknown wire type {wireType}");
                }
            }

            ulong ReadVarint()
            {
                ulong value = 0;
                for (int shift = 0; shift < 64; shift += 7)
                {
                    if (position >= bytes.Length) throw Truncated();
                    byte b = bytes[position++];
                    value |= (ulong)(b & 0x7F) << shift;
                    if (b < 0x80) return value;
                }
                throw new FormatException("ErrorInfo: varint too long");
            }

            void Advance(int count)
            {
                if (count > bytes.Length - position) throw Truncated();
                position += count;
            }

            static FormatException Truncated() => new FormatException("ErrorInfo: truncated");
        }
    }
}
