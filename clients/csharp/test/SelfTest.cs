// Offline checks of the drop-in's JSON reader/writer and of RefereeException's reading of
// Connect error bodies (no referee needed):  mono SelfTest.exe
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Threading;
using Referee.Client;

static class SelfTest
{
    static int passed;
    static readonly List<string> failures = new List<string>();

    static int Main()
    {
        // A culture with a decimal comma: reading and writing must not depend on it.
        Thread.CurrentThread.CurrentCulture = new CultureInfo("de-DE");
        ParsesScalars();
        ParsesStrings();
        ParsesNested();
        RefusesMalformed();
        WritesCanonically();
        RoundTrips();
        ReadsProto3Fields();
        ReadsConnectErrors();
        foreach (string failure in failures) Console.WriteLine("FAILED " + failure);
        Console.WriteLine($"self-test: {passed} checks passed, {failures.Count} failed");
        return failures.Count == 0 ? 0 : 1;
    }

    static void ParsesScalars()
    {
        Equal(true, Json.Parse("true"), "true");
        Equal(false, Json.Parse(" false "), "false");
        Equal(null, Json.Parse("null"), "null");
        Equal(0.0, Json.Parse("0"), "0");
        Equal(-0.0, Json.Parse("-0"), "-0");
        Equal(1500.0, Json.Parse("1.5e3"), "1.5e3");
        Equal(-0.1225, Json.Parse("-12.25E-2"), "-12.25E-2");
        Equal(100.0, Json.Parse("1E+2"), "1E+2");
        Equal(9007199254740993.0, Json.Parse("9007199254740993"), "beyond 2^53 rounds like a double");
    }

    static void ParsesStrings()
    {
        Equal("a\"b\\c/d\b\f\n\r\t", Json.Parse("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\""), "escapes");
        Equal("\u00e9\u4e2d", Json.Parse("\"\\u00e9\\u4E2D\""), "\\u escapes, either case");
        Equal("\U0001F600", Json.Parse("\"\\ud83d\\ude00\""), "a surrogate pair");
        Equal("é中\U0001F600", Json.Parse("\"é中\U0001F600\""), "raw non-ASCII");
        Equal("", Json.Parse("\"\""), "empty string");
    }

    static void ParsesNested()
    {
        var parsed = (Dictionary<string, object>)Json.Parse(" {\"a\" : [1, {\"b\": []}, {}], \"c\": {\"d\": null}}\n");
        var a = (List<object>)parsed["a"];
        Equal(3, a.Count, "array length");
        Equal(1.0, a[0], "array item");
        Equal(0, ((List<object>)((Dictionary<string, object>)a[1])["b"]).Count, "empty nested array");
        Equal(0, ((Dictionary<string, object>)a[2]).Count, "empty nested object");
        Equal(true, ((Dictionary<string, object>)parsed["c"]).ContainsKey("d"), "a null member is kept");
        Equal(2.0, Json.ParseObject("{\"k\":1,\"k\":2}")["k"], "the last duplicate wins");
        Equal(200, Depth((List<object>)Json.Parse(new string('[', 200) + new string(']', 200))), "200 levels");
    }

    static int Depth(List<object> array) => array.Count == 0 ? 1 : 1 + Depth((List<object>)array[0]);

    static void RefusesMalformed()
    {
        string[] malformed =
        {
            "", " ", "{", "}", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{1:1}", "'a'",
            "01", "1.", ".5", "+1", "-", "1e", "1e+", "0x10", "NaN", "Infinity", "1e400",
            "\"a", "\"\\x\"", "\"\\u12\"", "\"\\u12g4\"", "\"tab\there\"", "tru", "nul",
            "[1] 2", "{} {}", new string('[', 100000),
        };
        foreach (string text in malformed)
        {
            try
            {
                Json.Parse(text);
                Fail($"parsed malformed {Shown(text)}");
            }
            catch (FormatException)
            {
                passed++;
            }
        }
        Throws<FormatException>(() => Json.ParseObject("[]"), "ParseObject of an array");
    }

    static void WritesCanonically()
    {
        Equal("\"q\\\"b\\\\n\\nc\\u0001\\t\"", Json.Write("q\"b\\n\nc\u0001\t"), "string escapes");
        Equal("\"é\U0001F600/\"", Json.Write("é\U0001F600/"), "non-ASCII stays raw");
        Equal("\"\\ud800x\"", Json.Write("\ud800x"), "a lone surrogate is escaped");
        Equal("[0.1,1E+16,-2.5,3,9223372036854775807,1.1,2.5]",
            Json.Write(new object[] { 0.1, 1e16, -2.5, 3, long.MaxValue, 1.1f, 2.5m }), "numbers, invariant");
        Equal("{\"s\":\"v\"}", Json.Write(new Dictionary<string, string> { ["s"] = "v" }), "a string dictionary");
        Equal("[1,2]", Json.Write(new List<int> { 1, 2 }), "a list");
        Equal("{\"a\":null,\"b\":[true,false]}",
            Json.Write(new Dictionary<string, object> { ["a"] = null, ["b"] = new[] { true, false } }), "object");
        Throws<ArgumentException>(() => Json.Write(double.NaN), "NaN");
        Throws<ArgumentException>(() => Json.Write(new object()), "an unsupported type");
        Throws<ArgumentException>(() => Json.Write(new Dictionary<int, int> { [1] = 1 }), "a non-string key");
    }

    static void RoundTrips()
    {
        string[] canonical =
        {
            "{\"a\":[1,2.5,-3,true,false,null,\"x\"],\"b\":{}}",
            "[\"\\\"\\\\\\b\\f\\n\\r\\t\\u001f\",\"é中\U0001F600\"]",
            "[[[[]]],{\"\":{\"\":\"\"}}]",
            "[1E+300,0.30000000000000004,123456789012]",
        };
        foreach (string text in canonical) Equal(text, Json.Write(Json.Parse(text)), "round trip of " + text);
        // Runtimes differ in how short they print a double, never in the value read back.
        double[] doubles = { double.Epsilon, -double.MaxValue, 1.0 / 3, 0.1 + 0.2, 2.2250738585072014E-308 };
        foreach (double number in doubles) Equal(number, Json.Parse(Json.Write(number)), "the value of " + number.ToString("R", CultureInfo.InvariantCulture));
    }

    static void ReadsProto3Fields()
    {
        var fields = Json.ParseObject("{\"version\":\"42\",\"seats\":4,\"toAct\":[2,\"3\"],\"name\":\"n\",\"over\":true}");
        Equal(42L, fields.GetInt64("version"), "int64 as a string");
        Equal(4, fields.GetInt32("seats"), "int32 as a number");
        Equal("2,3", string.Join(",", fields.GetInt32List("toAct")), "int list");
        Equal("n", fields.GetString("name"), "string");
        Equal(true, fields.GetBool("over"), "bool");
        Equal(0L, fields.GetInt64("absent"), "absent int64 is 0");
        Equal("", fields.GetString("absent"), "absent string is empty");
        Equal(false, fields.GetBool("absent"), "absent bool is false");
        Equal(0, fields.GetList("absent").Count, "absent list is empty");
        Equal(null, fields.GetObject("absent"), "absent message is null");
        Throws<FormatException>(() => fields.GetInt64("name"), "a string that is no integer");
        Throws<FormatException>(() => Json.ParseObject("{\"v\":1.5}").GetInt64("v"), "a fraction");
        Equal(-9223372036854775808L, Json.ParseObject("{\"v\":\"-9223372036854775808\"}").GetInt64("v"), "long.MinValue");

        var view = new GameView(Json.ParseObject("{\"seats\":4,\"toAct\":[3],\"table\":{\"status\":\"TABLE_STATUS_LIVE\"}}"));
        Equal(null, view.Seat, "a spectator's view has no seat");
        Equal(0L, view.Version, "version 0 is absent");
        Equal(false, view.IsOver, "a live game is not over");
        Equal(0, new GameView(Json.ParseObject("{\"seat\":0}")).Seat, "seat 0 is present");
        Equal(true, new GameView(Json.ParseObject("{\"outcome\":{}}")).IsOver, "an outcome ends the game");
        var created = new CreatedGame(Json.ParseObject("{\"seatTokens\":[{\"token\":\"t0\"},{\"seat\":1,\"token\":\"t1\"}]}"));
        Equal("t0", created.TokenOf(0), "seat 0's token (no seat field)");
        Equal("t1", created.TokenOf(1), "seat 1's token");
    }

    static void ReadsConnectErrors()
    {
        const string value = "ChBWRVJTSU9OX01JU01BVENIEgpyZWZlcmVlLnYxGhQKD2N1cnJlbnRfdmVyc2lvbhIBMQ";
        string withDebug = "{\"code\": \"aborted\", \"message\": \"the game is at version 1, not 0\", \"details\": "
            + "[{\"type\": \"google.rpc.ErrorInfo\", \"value\": \"" + value + "\", \"debug\": {\"reason\": "
            + "\"VERSION_MISMATCH\", \"domain\": \"referee.v1\", \"metadata\": {\"current_version\": \"1\"}}}]}";
        string valueOnly = "{\"code\":\"aborted\",\"message\":\"m\",\"details\":[{\"type\":\"google.rpc.ErrorInfo\",\"value\":\"" + value + "\"}]}";
        foreach (string body in new[] { withDebug, valueOnly })
        {
            var error = RefereeException.FromResponse(409, body);
            Equal("aborted", error.Code, "code");
            Equal(409, error.HttpStatus, "HTTP status");
            Equal("VERSION_MISMATCH", error.Reason, "reason");
            Equal("referee.v1", error.Domain, "domain");
            Equal("1", error.Metadata["current_version"], "metadata");
        }
        var garbled = RefereeException.FromResponse(400,
            "{\"code\":\"internal\",\"message\":\"m\",\"details\":[{\"type\":\"google.rpc.ErrorInfo\",\"value\":\"!!\"}]}");
        Equal("internal", garbled.Code, "a garbled detail keeps the code");
        Equal("", garbled.Reason, "a garbled detail gives no reason");
        Equal("unavailable", RefereeException.FromResponse(503, "<html>busy</html>").Code, "a proxy's 503");
        Equal("unimplemented", RefereeException.FromResponse(404, "").Code, "a bare 404");
        Equal("unknown", RefereeException.FromResponse(500, "[]").Code, "a 500 without a Connect body");
    }

    static void Equal(object expected, object actual, string what)
    {
        if (Equals(expected, actual)) passed++;
        else Fail($"{what}: expected {Shown(expected)}, got {Shown(actual)}");
    }

    static void Throws<T>(Action action, string what) where T : Exception
    {
        try
        {
            action();
            Fail($"{what}: no {typeof(T).Name}");
        }
        catch (T)
        {
            passed++;
        }
    }

    static string Shown(object value)
    {
        string text = value is string s ? "\"" + s + "\"" : value?.ToString() ?? "null";
        return text.Length <= 60 ? text : text.Substring(0, 60) + "...";
    }

    static void Fail(string message) => failures.Add(message);
}
