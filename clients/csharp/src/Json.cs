// A small JSON reader and writer (RFC 8259) for the referee's HTTP/JSON face, so the client
// needs nothing beyond the base class library: Unity's JsonUtility cannot read dictionaries
// or oneofs, and Newtonsoft.Json is not part of Mono.
//
// Values map to: object -> Dictionary<string, object>, array -> List<object>, string ->
// string, number -> double, true/false -> bool, null -> null.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Referee.Client
{
    public static class Json
    {
        // Deeper input is refused with a FormatException instead of overflowing the stack
        // (which would take a Unity player down with it).
        const int MaxDepth = 256;

        /// <summary>Parses one JSON value; throws FormatException on malformed input.</summary>
        public static object Parse(string text)
        {
            if (text == null) throw new ArgumentNullException(nameof(text));
            var reader = new Reader(text);
            reader.SkipWhitespace();
            object value = reader.ReadValue(0);
            reader.SkipWhitespace();
            if (!reader.AtEnd) throw reader.Error("unexpected text after the value");
            return value;
        }

        /// <summary>Parses a JSON object (what every referee answer is).</summary>
        public static Dictionary<string, object> ParseObject(string text)
        {
            var value = Parse(text) as Dictionary<string, object>;
            if (value == null) throw new FormatException("JSON: expected an object");
            return value;
        }

        /// <summary>
        /// Writes a value as compact JSON: null, string, bool, any number type, an
        /// IDictionary with string keys, or any other IEnumerable (as an array).
        /// </summary>
        public static string Write(object value)
        {
            var output = new StringBuilder();
            WriteValue(output, value, 0);
            return output.ToString();
        }

        sealed class Reader
        {
            readonly string text;
            int position;

            public Reader(string text) { this.text = text; }

            public bool AtEnd => position == text.Length;

            public FormatException Error(string what) =>
                new FormatException($"JSON: {what} at offset {position}");

            public void SkipWhitespace()
            {
                while (!AtEnd)
                {
                    char c = text[position];
                    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
                    position++;
                }
            }

            public object ReadValue(int depth)
            {
                if (AtEnd) throw Error("unexpected end of input");
                char c = text[position];
                if (c == '{') return ReadObject(depth + 1);
                if (c == '[') return ReadArray(depth + 1);
                if (c == '"') return ReadString();
                if (c == '-' || (c >= '0' && c <= '9')) return ReadNumber();
                if (TryReadWord("true")) return true;
                if (TryReadWord("false")) return false;
                if (TryReadWord("null")) return null;
                throw Error($"unexpected character '{c}'");
            }

            bool TryReadWord(string word)
            {
                if (string.CompareOrdinal(text, position, word, 0, word.Length) != 0) return false;
                position += word.Length;
                return true;
            }

            void Expect(char c)
            {
                if (AtEnd || text[position] != c) throw Error($"expected '{c}'");
                position++;
            }

            bool TryRead(char c)
            {
                if (AtEnd || text[position] != c) return false;
                position++;
                return true;
            }

            Dictionary<string, object> ReadObject(int depth)
            {
                if (depth > MaxDepth) throw Error("nested too deeply");
                var result = new Dictionary<string, object>();
                Expect('{');
                SkipWhitespace();
                if (TryRead('}')) return result;
                do
                {
                    SkipWhitespace();
                    if (AtEnd || text[position] != '"') throw Error("expected a member name");
                    string name = ReadString();
                    SkipWhitespace();
                    Expect(':');
                    SkipWhitespace();
                    result[name] = ReadValue(depth);
                    SkipWhitespace();
                } while (TryRead(','));
                Expect('}');
                return result;
            }

            List<object> ReadArray(int depth)
            {
                if (depth > MaxDepth) throw Error("nested too deeply");
                var result = new List<object>();
                Expect('[');
                SkipWhitespace();
                if (TryRead(']')) return result;
                do
                {
                    SkipWhitespace();
                    result.Add(ReadValue(depth));
                    SkipWhitespace();
                } while (TryRead(','));
                Expect(']');
                return result;
            }

            string ReadString()
            {
                Expect('"');
                var result = new StringBuilder();
                while (true)
                {
                    if (AtEnd) throw Error("unterminated string");
                    char c = text[position++];
                    if (c == '"') return result.ToString();
                    if (c < ' ') throw Error("control character in a string");
                    if (c == '\\') result.Append(ReadEscape());
                    else result.Append(c);
                }
            }

            char ReadEscape()
            {
                if (AtEnd) throw Error("unterminated escape");
                char c = text[position++];
                switch (c)
                {
                    case '"': return '"';
                    case '\\': return '\\';
                    case '/': return '/';
                    case 'b': return '\b';
                    case 'f': return '\f';
                    case 'n': return '\n';
                    case 'r': return '\r';
                    case 't': return '\t';
                    // A surrogate pair arrives as two \u escapes: each is one UTF-16 unit,
                    // which is what a .NET string holds, so they need no pairing here.
                    case 'u': return ReadHexUnit();
                    default:
                        position--;
                        throw Error($"invalid escape '\\{c}'");
                }
            }

            char ReadHexUnit()
            {
                if (position + 4 > text.Length) throw Error("truncated \\u escape");
                int unit;
                if (!int.TryParse(text.Substring(position, 4), NumberStyles.AllowHexSpecifier,
                        CultureInfo.InvariantCulture, out unit))
                    throw Error("invalid \\u escape");
                position += 4;
                return (char)unit;
            }

            double ReadNumber()
            {
                int start = position;
                TryRead('-');
                if (TryRead('0')) { }
                else if (!SkipDigits()) throw Error("expected a digit");
                if (TryRead('.') && !SkipDigits()) throw Error("expected a digit after '.'");
                if (TryRead('e') || TryRead('E'))
                {
                    if (!TryRead('+')) TryRead('-');
                    if (!SkipDigits()) throw Error("expected an exponent");
                }
                string literal = text.Substring(start, position - start);
                double value;
                // The grammar is checked above; this only fails for out-of-range values on
                // runtimes that refuse them (Mono, .NET Framework) instead of giving infinity.
                if (!double.TryParse(literal, NumberStyles.Float, CultureInfo.InvariantCulture, out value)
                    || double.IsInfinity(value))
                    throw Error($"number out of range: {literal}");
                return value;
            }

            bool SkipDigits()
            {
                int start = position;
                while (!AtEnd && text[position] >= '0' && text[position] <= '9') position++;
                return position > start;
            }
        }

        static void WriteValue(StringBuilder output, object value, int depth)
        {
            if (depth > MaxDepth) throw new ArgumentException("JSON: value nested too deeply (a cycle?)");
            if (value == null) output.Append("null");
            else if (value is string text) WriteString(output, text);
            else if (value is bool flag) output.Append(flag ? "true" : "false");
            else if (value is double number) WriteDouble(output, number);
            else if (value is float single) WriteFloat(output, single);
            else if (IsInteger(value) || value is decimal)
                output.Append(((IFormattable)value).ToString(null, CultureInfo.InvariantCulture));
            else if (value is IDictionary members) WriteObject(output, members, depth);
            else if (value is IEnumerable items) WriteArray(output, items, depth);
            else throw new ArgumentException($"JSON: cannot write a {value.GetType()}");
        }

        static bool IsInteger(object value) =>
            value is int || value is long || value is short || value is sbyte
            || value is uint || value is ulong || value is ushort || value is byte;

        static void WriteDouble(StringBuilder output, double number)
        {
            if (double.IsNaN(number) || double.IsInfinity(number))
                throw new ArgumentException("JSON: NaN and infinities have no JSON form");
            output.Append(number.ToString("R", CultureInfo.InvariantCulture));
        }

        static void WriteFloat(StringBuilder output, float number)
        {
            if (float.IsNaN(number) || float.IsInfinity(number))
                throw new ArgumentException("JSON: NaN and infinities have no JSON form");
            output.Append(number.ToString("R", CultureInfo.InvariantCulture));
        }

        static void WriteObject(StringBuilder output, IDictionary members, int depth)
        {
            output.Append('{');
            bool first = true;
            foreach (DictionaryEntry member in members)
            {
                var name = member.Key as string;
                if (name == null) throw new ArgumentException("JSON: object keys must be strings");
                if (!first) output.Append(',');
                first = false;
                WriteString(output, name);
                output.Append(':');
                WriteValue(output, member.Value, depth + 1);
            }
            output.Append('}');
        }

        static void WriteArray(StringBuilder output, IEnumerable items, int depth)
        {
            output.Append('[');
            bool first = true;
            foreach (object item in items)
            {
                if (!first) output.Append(',');
                first = false;
                WriteValue(output, item, depth + 1);
            }
            output.Append(']');
        }

        static void WriteString(StringBuilder output, string text)
        {
            output.Append('"');
            for (int i = 0; i < text.Length; i++)
            {
                char c = text[i];
                switch (c)
                {
                    case '"': output.Append("\\\""); break;
                    case '\\': output.Append("\\\\"); break;
                    case '\b': output.Append("\\b"); break;
                    case '\f': output.Append("\\f"); break;
                    case '\n': output.Append("\\n"); break;
                    case '\r': output.Append("\\r"); break;
                    case '\t': output.Append("\\t"); break;
                    default:
                        // A lone surrogate has no UTF-8 form: escape it so it survives the wire.
                        if (c < ' ' || (char.IsSurrogate(c) && !IsPairAt(text, i)))
                            output.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else if (char.IsHighSurrogate(c))
                            output.Append(c).Append(text[++i]);
                        else
                            output.Append(c);
                        break;
                }
            }
            output.Append('"');
        }

        static bool IsPairAt(string text, int i) =>
            char.IsHighSurrogate(text[i]) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]);
    }

    /// <summary>
    /// Typed reads of a parsed JSON object with proto3 JSON's rules: a field that is absent
    /// holds its zero value ("" / 0 / false / empty list), int64 fields may come as strings.
    /// A message field that is absent is null (messages have presence).
    /// </summary>
    public static class JsonFields
    {
        // (double)long.MaxValue rounds up to 2^63, which no long holds: compare with 2^63.
        const double TwoTo63 = 9223372036854775808.0;

        public static string GetString(this IDictionary<string, object> fields, string name)
        {
            object value = Find(fields, name);
            if (value == null) return "";
            if (value is string text) return text;
            throw WrongType(name, "a string", value);
        }

        public static long GetInt64(this IDictionary<string, object> fields, string name)
        {
            object value = Find(fields, name);
            return value == null ? 0 : ToInt64(value, name);
        }

        public static int GetInt32(this IDictionary<string, object> fields, string name) =>
            checked((int)GetInt64(fields, name));

        public static bool GetBool(this IDictionary<string, object> fields, string name)
        {
            object value = Find(fields, name);
            if (value == null) return false;
            if (value is bool flag) return flag;
            throw WrongType(name, "a bool", value);
        }

        /// <summary>A message field: null when absent.</summary>
        public static Dictionary<string, object> GetObject(this IDictionary<string, object> fields, string name)
        {
            object value = Find(fields, name);
            if (value == null) return null;
            if (value is Dictionary<string, object> message) return message;
            throw WrongType(name, "an object", value);
        }

        public static List<object> GetList(this IDictionary<string, object> fields, string name)
        {
            object value = Find(fields, name);
            if (value == null) return new List<object>();
            if (value is List<object> items) return items;
            throw WrongType(name, "an array", value);
        }

        public static List<int> GetInt32List(this IDictionary<string, object> fields, string name) =>
            GetList(fields, name).ConvertAll(item => checked((int)ToInt64(item, name)));

        /// <summary>An integer as proto3 JSON writes it: a number, or a string (int64).</summary>
        public static long ToInt64(object value, string name = "value")
        {
            if (value is string text)
            {
                long parsed;
                if (long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out parsed))
                    return parsed;
            }
            else if (value is double number && number == Math.Floor(number)
                     && number >= -TwoTo63 && number < TwoTo63)
            {
                return (long)number;
            }
            throw WrongType(name, "an integer", value);
        }

        static object Find(IDictionary<string, object> fields, string name)
        {
            object value;
            return fields.TryGetValue(name, out value) ? value : null;
        }

        static FormatException WrongType(string name, string expected, object value) =>
            new FormatException($"JSON: field '{name}' is not {expected}: {Json.Write(value)}");
    }
}
