package referee.smoke;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.MetadataUtils;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import referee.v1.Game.Move;
import referee.v1.Game.View;
import referee.v1.Referee.CreateGameRequest;
import referee.v1.Referee.CreateGameResponse;
import referee.v1.Referee.GetViewRequest;
import referee.v1.Referee.ListLegalMovesRequest;
import referee.v1.Referee.ListLegalMovesResponse;
import referee.v1.Referee.SubmitMoveRequest;
import referee.v1.Referee.SubmitMoveResponse;
import referee.v1.Referee.WatchGameRequest;
import referee.v1.Referee.WatchGameResponse;
import referee.v1.RefereeServiceGrpc;
import referee.v1.RefereeServiceGrpc.RefereeServiceBlockingStub;

/**
 * Plays the clients stage's script against a live referee: create a Gang of Four table, take
 * the seat that acts, list its legal moves, watch the game, submit a move, see its update on
 * the stream, and read the typed refusal of a move out of turn.
 *
 * <pre>java -cp ... referee.smoke.Smoke 127.0.0.1:50051</pre>
 *
 * <p>Prints one line per step; exits 0 only if every step passed.
 */
public final class Smoke {
  /** Every call, the watch stream included, must end within this: a broken server fails fast. */
  private static final long DEADLINE_SECONDS = 10;

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private static final String ERROR_INFO_TYPE_URL = "type.googleapis.com/google.rpc.ErrorInfo";
  private static final int ERROR_INFO_REASON_FIELD = 1;

  private final RefereeServiceBlockingStub referee;

  private Smoke(ManagedChannel channel) {
    this.referee = RefereeServiceGrpc.newBlockingStub(channel);
  }

  public static void main(String[] args) throws InterruptedException {
    if (args.length != 1) {
      System.err.println("usage: referee.smoke.Smoke GRPC_ADDRESS");
      System.exit(2);
    }
    ManagedChannel channel = ManagedChannelBuilder.forTarget(args[0]).usePlaintext().build();
    int exitCode = 0;
    try {
      new Smoke(channel).play();
    } catch (StepFailed | StatusRuntimeException e) {
      System.out.println("FAILED: " + e.getMessage());
      exitCode = 1;
    } finally {
      channel.shutdownNow().awaitTermination(DEADLINE_SECONDS, TimeUnit.SECONDS);
    }
    System.exit(exitCode);
  }

  private void play() throws StepFailed {
    CreateGameResponse game =
        stub().createGame(
            CreateGameRequest.newBuilder().setGame("gang_of_four").setSeats(4).build());
    int seats = game.getSeatTokensCount();
    check(seats == 4, "expected 4 seat tokens, got " + seats);
    String gameId = game.getGameId();
    System.out.println("create: game " + gameId + ", " + seats + " seat tokens");

    int seat = seatToAct(gameId, game.getSeatTokens(0).getToken());
    String token = game.getSeatTokens(seat).getToken();
    System.out.println("view: seat " + seat + " acts");

    ListLegalMovesResponse legal =
        stub(token).listLegalMoves(ListLegalMovesRequest.newBuilder().setGameId(gameId).build());
    check(legal.getMovesCount() > 0, "no legal moves for the seat that acts");
    System.out.println(
        "legal moves: " + legal.getMovesCount() + " at version " + legal.getVersion());
    Move move = legal.getMoves(0);

    // Closing the context cancels the watch: the blocking iterator has no close of its own.
    try (Context.CancellableContext watchContext = Context.current().withCancellation()) {
      Iterator<WatchGameResponse> updates = watch(watchContext, token, gameId, legal.getVersion());
      System.out.println("watch: open after version " + legal.getVersion());

      SubmitMoveResponse reply = submit(token, gameId, move, legal.getVersion());
      System.out.println("submit: accepted, version " + reply.getVersion());

      WatchGameResponse update = awaitVersion(updates, reply.getVersion());
      System.out.println(
          "watch: version " + update.getVersion() + ", to_act " + update.getView().getToActList());

      expectRefusal(token, gameId, move);
    }
    System.out.println("close: watch cancelled");
  }

  /** The seat that acts first, as seat 0's view names it. */
  private int seatToAct(String gameId, String seatZeroToken) throws StepFailed {
    GetViewRequest request = GetViewRequest.newBuilder().setGameId(gameId).build();
    View view = stub(seatZeroToken).getView(request).getView();
    check(view.getToActCount() > 0, "nobody to act in a fresh game");
    return view.getToAct(0);
  }

  private Iterator<WatchGameResponse> watch(
      Context.CancellableContext context, String token, String gameId, long afterVersion) {
    WatchGameRequest request =
        WatchGameRequest.newBuilder().setGameId(gameId).setAfterVersion(afterVersion).build();
    // `after_version` makes the referee replay every later version: the update of the move
    // submitted next arrives even if the referee sets up this stream after applying it.
    Context previous = context.attach();
    try {
      return stub(token).watchGame(request);
    } finally {
      context.detach(previous);
    }
  }

  private SubmitMoveResponse submit(String token, String gameId, Move move, long expectedVersion) {
    return stub(token)
        .submitMove(
            SubmitMoveRequest.newBuilder()
                .setGameId(gameId)
                .setClientMoveId(UUID.randomUUID().toString())
                .setMove(move)
                .setExpectedVersion(expectedVersion)
                .build());
  }

  /** Reads the stream up to the update of {@code version}; earlier ones are skipped. */
  private static WatchGameResponse awaitVersion(Iterator<WatchGameResponse> updates, long version)
      throws StepFailed {
    while (updates.hasNext()) {
      WatchGameResponse update = updates.next();
      if (update.getVersion() == version) {
        return update;
      }
      check(update.getVersion() < version, "the stream skipped version " + version);
    }
    throw new StepFailed("the stream ended before version " + version);
  }

  /** The same move again is out of turn now: FAILED_PRECONDITION with an ErrorInfo reason. */
  private void expectRefusal(String token, String gameId, Move move) throws StepFailed {
    SubmitMoveRequest again =
        SubmitMoveRequest.newBuilder()
            .setGameId(gameId)
            .setClientMoveId(UUID.randomUUID().toString())
            .setMove(move)
            .build();
    try {
      stub(token).submitMove(again);
    } catch (StatusRuntimeException e) {
      Status.Code code = e.getStatus().getCode();
      String reason = reasonOf(e);
      check(code == Status.Code.FAILED_PRECONDITION, "refused with " + code + " " + reason);
      check(!reason.isEmpty(), "refusal without an ErrorInfo reason");
      System.out.println("refusal: " + code + " " + reason);
      return;
    }
    throw new StepFailed("the move out of turn was accepted");
  }

  /**
   * The reason of the google.rpc.ErrorInfo in the grpc-status-details-bin trailer, or "".
   *
   * <p>Debian's proto-google-common-protos (1.16) predates ErrorInfo; with 2.x (what
   * grpc-protobuf 1.41.3 brings from Maven Central) this is {@code
   * detail.unpack(ErrorInfo.class).getReason()}. The reason is ErrorInfo's field 1, a string, so
   * it is read from the wire form, which every version shares.
   */
  private static String reasonOf(StatusRuntimeException e) throws StepFailed {
    com.google.rpc.Status status = StatusProto.fromThrowable(e);
    if (status == null) {
      return "";
    }
    for (Any detail : status.getDetailsList()) {
      if (detail.getTypeUrl().equals(ERROR_INFO_TYPE_URL)) {
        try {
          List<ByteString> reasons =
              UnknownFieldSet.parseFrom(detail.getValue())
                  .getField(ERROR_INFO_REASON_FIELD)
                  .getLengthDelimitedList();
          // A field sent twice keeps its last value.
          return reasons.isEmpty() ? "" : reasons.get(reasons.size() - 1).toStringUtf8();
        } catch (InvalidProtocolBufferException malformed) {
          throw new StepFailed("malformed ErrorInfo: " + malformed.getMessage());
        }
      }
    }
    return "";
  }

  /** A stub for one call, without a token (CreateGame needs none). */
  private RefereeServiceBlockingStub stub() {
    return referee.withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  /** A stub for one call as the seat that holds {@code token}. */
  private RefereeServiceBlockingStub stub(String token) {
    Metadata headers = new Metadata();
    headers.put(AUTHORIZATION, "Bearer " + token);
    return stub().withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  private static void check(boolean condition, String failure) throws StepFailed {
    if (!condition) {
      throw new StepFailed(failure);
    }
  }

  /** A step of the script did not go as it must. */
  private static final class StepFailed extends Exception {
    private static final long serialVersionUID = 1L;

    StepFailed(String message) {
      super(message);
    }
  }
}
