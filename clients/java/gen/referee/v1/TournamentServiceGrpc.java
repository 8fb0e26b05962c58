package referee.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * TournamentService hosts tournaments of one game: several rounds, each a set of tables
 * played at the same time, with standings after every round, openskill ratings and a final
 * ranking. A tournament is stored like a game: one record with an integer version that
 * every change raises by one through a compare-and-set, so any referee process sharing the
 * store serves the same tournament. The process that started it directs it (creates each
 * round's games, runs the bot seats, records results, pairs the next round).
 * Authentication, as for games, with `authorization: Bearer &lt;token&gt;` metadata:
 *   - CreateTournament needs none and returns an admin token and one one-time seat code
 *     per external participant. The admin hands each person their code; that person
 *     redeems it once with ClaimSeat (no token) for their participant token. The referee
 *     stores only hashes of tokens and codes, and the admin never holds a participant's
 *     token or a seat token.
 *   - StartTournament needs the admin token.
 *   - GetTournament and WatchTournament are public (no token: what every spectator sees).
 *     With a participant token the answer also holds that participant's seat tokens for
 *     the games of its tables; with the admin token, whether and when each external
 *     participant claimed its seat (never a token).
 * Tables are games of RefereeService, created with `allow_spectators`, so anyone may watch
 * them and read their history. An external participant plays its seats there with the
 * seat tokens GetTournament gives it. Bots play as ordinary clients of the same API.
 * Errors are those of RefereeService (a `google.rpc.ErrorInfo` with a stable reason):
 *   INVALID_ARGUMENT     malformed request (e.g. TABLE_SIZE_UNSUPPORTED, TOO_FEW_PARTICIPANTS)
 *   NOT_FOUND            TOURNAMENT_NOT_FOUND
 *   UNAUTHENTICATED      TOKEN_MISSING, TOKEN_INVALID (a token that is not this tournament's),
 *                        OPERATOR_KEY_REQUIRED (CreateTournament: a participant's player_id
 *                        without an operator key)
 *   PERMISSION_DENIED    ADMIN_TOKEN_REQUIRED (a participant token where the admin's is needed)
 *   NOT_FOUND            SEAT_CODE_INVALID (ClaimSeat: a code that is unknown, already
 *                        used or expired; one reason for all three)
 *   RESOURCE_EXHAUSTED   SEAT_CODE_ATTEMPTS_EXCEEDED (ClaimSeat: too many wrong codes from
 *                        this address; metadata `retry_after_seconds`)
 * </pre>
 */
@javax.annotation.Generated(
    value = "by gRPC proto compiler",
    comments = "Source: referee/v1/tournament.proto")
@io.grpc.stub.annotations.GrpcGenerated
public final class TournamentServiceGrpc {

  private TournamentServiceGrpc() {}

  public static final String SERVICE_NAME = "referee.v1.TournamentService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.CreateTournamentRequest,
      referee.v1.TournamentOuterClass.CreateTournamentResponse> getCreateTournamentMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateTournament",
      requestType = referee.v1.TournamentOuterClass.CreateTournamentRequest.class,
      responseType = referee.v1.TournamentOuterClass.CreateTournamentResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.CreateTournamentRequest,
      referee.v1.TournamentOuterClass.CreateTournamentResponse> getCreateTournamentMethod() {
    io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.CreateTournamentRequest, referee.v1.TournamentOuterClass.CreateTournamentResponse> getCreateTournamentMethod;
    if ((getCreateTournamentMethod = TournamentServiceGrpc.getCreateTournamentMethod) == null) {
      synchronized (TournamentServiceGrpc.class) {
        if ((getCreateTournamentMethod = TournamentServiceGrpc.getCreateTournamentMethod) == null) {
          TournamentServiceGrpc.getCreateTournamentMethod = getCreateTournamentMethod =
              io.grpc.MethodDescriptor.<referee.v1.TournamentOuterClass.CreateTournamentRequest, referee.v1.TournamentOuterClass.CreateTournamentResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateTournament"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.CreateTournamentRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.CreateTournamentResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TournamentServiceMethodDescriptorSupplier("CreateTournament"))
              .build();
        }
      }
    }
    return getCreateTournamentMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.StartTournamentRequest,
      referee.v1.TournamentOuterClass.StartTournamentResponse> getStartTournamentMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "StartTournament",
      requestType = referee.v1.TournamentOuterClass.StartTournamentRequest.class,
      responseType = referee.v1.TournamentOuterClass.StartTournamentResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.StartTournamentRequest,
      referee.v1.TournamentOuterClass.StartTournamentResponse> getStartTournamentMethod() {
    io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.StartTournamentRequest, referee.v1.TournamentOuterClass.StartTournamentResponse> getStartTournamentMethod;
    if ((getStartTournamentMethod = TournamentServiceGrpc.getStartTournamentMethod) == null) {
      synchronized (TournamentServiceGrpc.class) {
        if ((getStartTournamentMethod = TournamentServiceGrpc.getStartTournamentMethod) == null) {
          TournamentServiceGrpc.getStartTournamentMethod = getStartTournamentMethod =
              io.grpc.MethodDescriptor.<referee.v1.TournamentOuterClass.StartTournamentRequest, referee.v1.TournamentOuterClass.StartTournamentResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "StartTournament"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.StartTournamentRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.StartTournamentResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TournamentServiceMethodDescriptorSupplier("StartTournament"))
              .build();
        }
      }
    }
    return getStartTournamentMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.GetTournamentRequest,
      referee.v1.TournamentOuterClass.GetTournamentResponse> getGetTournamentMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetTournament",
      requestType = referee.v1.TournamentOuterClass.GetTournamentRequest.class,
      responseType = referee.v1.TournamentOuterClass.GetTournamentResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.GetTournamentRequest,
      referee.v1.TournamentOuterClass.GetTournamentResponse> getGetTournamentMethod() {
    io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.GetTournamentRequest, referee.v1.TournamentOuterClass.GetTournamentResponse> getGetTournamentMethod;
    if ((getGetTournamentMethod = TournamentServiceGrpc.getGetTournamentMethod) == null) {
      synchronized (TournamentServiceGrpc.class) {
        if ((getGetTournamentMethod = TournamentServiceGrpc.getGetTournamentMethod) == null) {
          TournamentServiceGrpc.getGetTournamentMethod = getGetTournamentMethod =
              io.grpc.MethodDescriptor.<referee.v1.TournamentOuterClass.GetTournamentRequest, referee.v1.TournamentOuterClass.GetTournamentResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetTournament"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.GetTournamentRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.GetTournamentResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TournamentServiceMethodDescriptorSupplier("GetTournament"))
              .build();
        }
      }
    }
    return getGetTournamentMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.WatchTournamentRequest,
      referee.v1.TournamentOuterClass.WatchTournamentResponse> getWatchTournamentMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "WatchTournament",
      requestType = referee.v1.TournamentOuterClass.WatchTournamentRequest.class,
      responseType = referee.v1.TournamentOuterClass.WatchTournamentResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.WatchTournamentRequest,
      referee.v1.TournamentOuterClass.WatchTournamentResponse> getWatchTournamentMethod() {
    io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.WatchTournamentRequest, referee.v1.TournamentOuterClass.WatchTournamentResponse> getWatchTournamentMethod;
    if ((getWatchTournamentMethod = TournamentServiceGrpc.getWatchTournamentMethod) == null) {
      synchronized (TournamentServiceGrpc.class) {
        if ((getWatchTournamentMethod = TournamentServiceGrpc.getWatchTournamentMethod) == null) {
          TournamentServiceGrpc.getWatchTournamentMethod = getWatchTournamentMethod =
              io.grpc.MethodDescriptor.<referee.v1.TournamentOuterClass.WatchTournamentRequest, referee.v1.TournamentOuterClass.WatchTournamentResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "WatchTournament"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.WatchTournamentRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.WatchTournamentResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TournamentServiceMethodDescriptorSupplier("WatchTournament"))
              .build();
        }
      }
    }
    return getWatchTournamentMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.ListTournamentsRequest,
      referee.v1.TournamentOuterClass.ListTournamentsResponse> getListTournamentsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListTournaments",
      requestType = referee.v1.TournamentOuterClass.ListTournamentsRequest.class,
      responseType = referee.v1.TournamentOuterClass.ListTournamentsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.ListTournamentsRequest,
      referee.v1.TournamentOuterClass.ListTournamentsResponse> getListTournamentsMethod() {
    io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.ListTournamentsRequest, referee.v1.TournamentOuterClass.ListTournamentsResponse> getListTournamentsMethod;
    if ((getListTournamentsMethod = TournamentServiceGrpc.getListTournamentsMethod) == null) {
      synchronized (TournamentServiceGrpc.class) {
        if ((getListTournamentsMethod = TournamentServiceGrpc.getListTournamentsMethod) == null) {
          TournamentServiceGrpc.getListTournamentsMethod = getListTournamentsMethod =
              io.grpc.MethodDescriptor.<referee.v1.TournamentOuterClass.ListTournamentsRequest, referee.v1.TournamentOuterClass.ListTournamentsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListTournaments"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.ListTournamentsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.ListTournamentsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TournamentServiceMethodDescriptorSupplier("ListTournaments"))
              .build();
        }
      }
    }
    return getListTournamentsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.ClaimSeatRequest,
      referee.v1.TournamentOuterClass.ClaimSeatResponse> getClaimSeatMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ClaimSeat",
      requestType = referee.v1.TournamentOuterClass.ClaimSeatRequest.class,
      responseType = referee.v1.TournamentOuterClass.ClaimSeatResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.ClaimSeatRequest,
      referee.v1.TournamentOuterClass.ClaimSeatResponse> getClaimSeatMethod() {
    io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.ClaimSeatRequest, referee.v1.TournamentOuterClass.ClaimSeatResponse> getClaimSeatMethod;
    if ((getClaimSeatMethod = TournamentServiceGrpc.getClaimSeatMethod) == null) {
      synchronized (TournamentServiceGrpc.class) {
        if ((getClaimSeatMethod = TournamentServiceGrpc.getClaimSeatMethod) == null) {
          TournamentServiceGrpc.getClaimSeatMethod = getClaimSeatMethod =
              io.grpc.MethodDescriptor.<referee.v1.TournamentOuterClass.ClaimSeatRequest, referee.v1.TournamentOuterClass.ClaimSeatResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ClaimSeat"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.ClaimSeatRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.ClaimSeatResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TournamentServiceMethodDescriptorSupplier("ClaimSeat"))
              .build();
        }
      }
    }
    return getClaimSeatMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.ForfeitTableSeatRequest,
      referee.v1.TournamentOuterClass.ForfeitTableSeatResponse> getForfeitTableSeatMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ForfeitTableSeat",
      requestType = referee.v1.TournamentOuterClass.ForfeitTableSeatRequest.class,
      responseType = referee.v1.TournamentOuterClass.ForfeitTableSeatResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.ForfeitTableSeatRequest,
      referee.v1.TournamentOuterClass.ForfeitTableSeatResponse> getForfeitTableSeatMethod() {
    io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.ForfeitTableSeatRequest, referee.v1.TournamentOuterClass.ForfeitTableSeatResponse> getForfeitTableSeatMethod;
    if ((getForfeitTableSeatMethod = TournamentServiceGrpc.getForfeitTableSeatMethod) == null) {
      synchronized (TournamentServiceGrpc.class) {
        if ((getForfeitTableSeatMethod = TournamentServiceGrpc.getForfeitTableSeatMethod) == null) {
          TournamentServiceGrpc.getForfeitTableSeatMethod = getForfeitTableSeatMethod =
              io.grpc.MethodDescriptor.<referee.v1.TournamentOuterClass.ForfeitTableSeatRequest, referee.v1.TournamentOuterClass.ForfeitTableSeatResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ForfeitTableSeat"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.ForfeitTableSeatRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.ForfeitTableSeatResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TournamentServiceMethodDescriptorSupplier("ForfeitTableSeat"))
              .build();
        }
      }
    }
    return getForfeitTableSeatMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.ReplaceTableSeatByBotRequest,
      referee.v1.TournamentOuterClass.ReplaceTableSeatByBotResponse> getReplaceTableSeatByBotMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReplaceTableSeatByBot",
      requestType = referee.v1.TournamentOuterClass.ReplaceTableSeatByBotRequest.class,
      responseType = referee.v1.TournamentOuterClass.ReplaceTableSeatByBotResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.ReplaceTableSeatByBotRequest,
      referee.v1.TournamentOuterClass.ReplaceTableSeatByBotResponse> getReplaceTableSeatByBotMethod() {
    io.grpc.MethodDescriptor<referee.v1.TournamentOuterClass.ReplaceTableSeatByBotRequest, referee.v1.TournamentOuterClass.ReplaceTableSeatByBotResponse> getReplaceTableSeatByBotMethod;
    if ((getReplaceTableSeatByBotMethod = TournamentServiceGrpc.getReplaceTableSeatByBotMethod) == null) {
      synchronized (TournamentServiceGrpc.class) {
        if ((getReplaceTableSeatByBotMethod = TournamentServiceGrpc.getReplaceTableSeatByBotMethod) == null) {
          TournamentServiceGrpc.getReplaceTableSeatByBotMethod = getReplaceTableSeatByBotMethod =
              io.grpc.MethodDescriptor.<referee.v1.TournamentOuterClass.ReplaceTableSeatByBotRequest, referee.v1.TournamentOuterClass.ReplaceTableSeatByBotResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReplaceTableSeatByBot"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.ReplaceTableSeatByBotRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.TournamentOuterClass.ReplaceTableSeatByBotResponse.getDefaultInstance()))
              .setSchemaDescriptor(new TournamentServiceMethodDescriptorSupplier("ReplaceTableSeatByBot"))
              .build();
        }
      }
    }
    return getReplaceTableSeatByBotMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static TournamentServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<TournamentServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<TournamentServiceStub>() {
        @java.lang.Override
        public TournamentServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new TournamentServiceStub(channel, callOptions);
        }
      };
    return TournamentServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static TournamentServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<TournamentServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<TournamentServiceBlockingStub>() {
        @java.lang.Override
        public TournamentServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new TournamentServiceBlockingStub(channel, callOptions);
        }
      };
    return TournamentServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static TournamentServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<TournamentServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<TournamentServiceFutureStub>() {
        @java.lang.Override
        public TournamentServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new TournamentServiceFutureStub(channel, callOptions);
        }
      };
    return TournamentServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * TournamentService hosts tournaments of one game: several rounds, each a set of tables
   * played at the same time, with standings after every round, openskill ratings and a final
   * ranking. A tournament is stored like a game: one record with an integer version that
   * every change raises by one through a compare-and-set, so any referee process sharing the
   * store serves the same tournament. The process that started it directs it (creates each
   * round's games, runs the bot seats, records results, pairs the next round).
   * Authentication, as for games, with `authorization: Bearer &lt;token&gt;` metadata:
   *   - CreateTournament needs none and returns an admin token and one one-time seat code
   *     per external participant. The admin hands each person their code; that person
   *     redeems it once with ClaimSeat (no token) for their participant token. The referee
   *     stores only hashes of tokens and codes, and the admin never holds a participant's
   *     token or a seat token.
   *   - StartTournament needs the admin token.
   *   - GetTournament and WatchTournament are public (no token: what every spectator sees).
   *     With a participant token the answer also holds that participant's seat tokens for
   *     the games of its tables; with the admin token, whether and when each external
   *     participant claimed its seat (never a token).
   * Tables are games of RefereeService, created with `allow_spectators`, so anyone may watch
   * them and read their history. An external participant plays its seats there with the
   * seat tokens GetTournament gives it. Bots play as ordinary clients of the same API.
   * Errors are those of RefereeService (a `google.rpc.ErrorInfo` with a stable reason):
   *   INVALID_ARGUMENT     malformed request (e.g. TABLE_SIZE_UNSUPPORTED, TOO_FEW_PARTICIPANTS)
   *   NOT_FOUND            TOURNAMENT_NOT_FOUND
   *   UNAUTHENTICATED      TOKEN_MISSING, TOKEN_INVALID (a token that is not this tournament's),
   *                        OPERATOR_KEY_REQUIRED (CreateTournament: a participant's player_id
   *                        without an operator key)
   *   PERMISSION_DENIED    ADMIN_TOKEN_REQUIRED (a participant token where the admin's is needed)
   *   NOT_FOUND            SEAT_CODE_INVALID (ClaimSeat: a code that is unknown, already
   *                        used or expired; one reason for all three)
   *   RESOURCE_EXHAUSTED   SEAT_CODE_ATTEMPTS_EXCEEDED (ClaimSeat: too many wrong codes from
   *                        this address; metadata `retry_after_seconds`)
   * </pre>
   */
  public static abstract class TournamentServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * Create a tournament (not started yet). Returns its id, the admin token and one
     * one-time seat code per external participant. Its tables are rated (RatingService)
     * only when the caller presents an operator key (`x-referee-key`), even on a referee
     * where creating needs none: the key vouches for its participants' player ids. Without
     * one the tournament is played unrated (its standings' ratings are its own, as always).
     * </pre>
     */
    public void createTournament(referee.v1.TournamentOuterClass.CreateTournamentRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.CreateTournamentResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateTournamentMethod(), responseObserver);
    }

    /**
     * <pre>
     * Start it (admin token): round 1 is paired and its games created; bots start playing.
     * Idempotent: starting a running tournament on another process makes that process a
     * standby. One process directs at a time (a lease in the store); when the directing
     * process stops, a standby takes over within seconds and its bots play on from the
     * stored versions (the stopped bots' games were left waiting for their moves).
     * </pre>
     */
    public void startTournament(referee.v1.TournamentOuterClass.StartTournamentRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.StartTournamentResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getStartTournamentMethod(), responseObserver);
    }

    /**
     * <pre>
     * The tournament now, with its version.
     * </pre>
     */
    public void getTournament(referee.v1.TournamentOuterClass.GetTournamentRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.GetTournamentResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetTournamentMethod(), responseObserver);
    }

    /**
     * <pre>
     * A stream of snapshots, one per version the watcher gets to see: a snapshot is the whole
     * tournament, so versions that changed in between are not lost, only merged. Resume
     * with `after_version` = the last version you saw. The stream ends after the snapshot
     * of the finished tournament.
     * </pre>
     */
    public void watchTournament(referee.v1.TournamentOuterClass.WatchTournamentRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.WatchTournamentResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getWatchTournamentMethod(), responseObserver);
    }

    /**
     * <pre>
     * Tournaments, the most recently changed first, as every spectator sees them (public,
     * like GetTournament). Expired tournaments drop out of the list with their records.
     * </pre>
     */
    public void listTournaments(referee.v1.TournamentOuterClass.ListTournamentsRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.ListTournamentsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListTournamentsMethod(), responseObserver);
    }

    /**
     * <pre>
     * Redeem a seat code (no token needed): the participant token of the code's participant,
     * once. The code is then spent: a second claim, like an unknown or expired code, is
     * NOT_FOUND SEAT_CODE_INVALID, and of concurrent claims of one code exactly one wins.
     * Wrong codes from one address are limited per minute (RESOURCE_EXHAUSTED
     * SEAT_CODE_ATTEMPTS_EXCEEDED), so codes cannot be guessed.
     * </pre>
     */
    public void claimSeat(referee.v1.TournamentOuterClass.ClaimSeatRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.ClaimSeatResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getClaimSeatMethod(), responseObserver);
    }

    /**
     * <pre>
     * The admin's hand on a no-show at a table of the tournament (admin token): forfeit an
     * external participant's seat, as LobbyService.ForfeitSeat with the table admin token
     * would (placed last, the clock plays it at once; The Gang refuses FORFEIT_NOT_IN_GAME).
     * The tournament admin holds no table admin token (it would reissue a participant's seat
     * token), so this RPC is its one way to act on its tables, and only on these two.
     * Refusals besides the table's own (SEAT_FORFEITED, GAME_OVER, TABLE_ACTIONS_EXCEEDED):
     * UNAUTHENTICATED TOKEN_MISSING / TOKEN_INVALID, PERMISSION_DENIED ADMIN_TOKEN_REQUIRED,
     * NOT_FOUND TABLE_NOT_IN_TOURNAMENT (a game id that is no table of it),
     * PERMISSION_DENIED SEAT_NOT_AT_TABLE, FAILED_PRECONDITION SEAT_PLAYED_BY_BOT (a bot
     * participant's seat).
     * </pre>
     */
    public void forfeitTableSeat(referee.v1.TournamentOuterClass.ForfeitTableSeatRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.ForfeitTableSeatResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getForfeitTableSeatMethod(), responseObserver);
    }

    /**
     * <pre>
     * The same hand, giving the seat to the referee's bot, which plays it from then on (as
     * LobbyService.ReplaceSeatByBot): the participant's seat token for that table is refused
     * from then on (TOKEN_REVOKED); the seat keeps the participant's name and counts for it in
     * the standings. Refusals as ForfeitTableSeat's, and SEAT_ALREADY_BOT.
     * </pre>
     */
    public void replaceTableSeatByBot(referee.v1.TournamentOuterClass.ReplaceTableSeatByBotRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.ReplaceTableSeatByBotResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReplaceTableSeatByBotMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getCreateTournamentMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.TournamentOuterClass.CreateTournamentRequest,
                referee.v1.TournamentOuterClass.CreateTournamentResponse>(
                  this, METHODID_CREATE_TOURNAMENT)))
          .addMethod(
            getStartTournamentMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.TournamentOuterClass.StartTournamentRequest,
                referee.v1.TournamentOuterClass.StartTournamentResponse>(
                  this, METHODID_START_TOURNAMENT)))
          .addMethod(
            getGetTournamentMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.TournamentOuterClass.GetTournamentRequest,
                referee.v1.TournamentOuterClass.GetTournamentResponse>(
                  this, METHODID_GET_TOURNAMENT)))
          .addMethod(
            getWatchTournamentMethod(),
            io.grpc.stub.ServerCalls.asyncServerStreamingCall(
              new MethodHandlers<
                referee.v1.TournamentOuterClass.WatchTournamentRequest,
                referee.v1.TournamentOuterClass.WatchTournamentResponse>(
                  this, METHODID_WATCH_TOURNAMENT)))
          .addMethod(
            getListTournamentsMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.TournamentOuterClass.ListTournamentsRequest,
                referee.v1.TournamentOuterClass.ListTournamentsResponse>(
                  this, METHODID_LIST_TOURNAMENTS)))
          .addMethod(
            getClaimSeatMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.TournamentOuterClass.ClaimSeatRequest,
                referee.v1.TournamentOuterClass.ClaimSeatResponse>(
                  this, METHODID_CLAIM_SEAT)))
          .addMethod(
            getForfeitTableSeatMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.TournamentOuterClass.ForfeitTableSeatRequest,
                referee.v1.TournamentOuterClass.ForfeitTableSeatResponse>(
                  this, METHODID_FORFEIT_TABLE_SEAT)))
          .addMethod(
            getReplaceTableSeatByBotMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.TournamentOuterClass.ReplaceTableSeatByBotRequest,
                referee.v1.TournamentOuterClass.ReplaceTableSeatByBotResponse>(
                  this, METHODID_REPLACE_TABLE_SEAT_BY_BOT)))
          .build();
    }
  }

  /**
   * <pre>
   * TournamentService hosts tournaments of one game: several rounds, each a set of tables
   * played at the same time, with standings after every round, openskill ratings and a final
   * ranking. A tournament is stored like a game: one record with an integer version that
   * every change raises by one through a compare-and-set, so any referee process sharing the
   * store serves the same tournament. The process that started it directs it (creates each
   * round's games, runs the bot seats, records results, pairs the next round).
   * Authentication, as for games, with `authorization: Bearer &lt;token&gt;` metadata:
   *   - CreateTournament needs none and returns an admin token and one one-time seat code
   *     per external participant. The admin hands each person their code; that person
   *     redeems it once with ClaimSeat (no token) for their participant token. The referee
   *     stores only hashes of tokens and codes, and the admin never holds a participant's
   *     token or a seat token.
   *   - StartTournament needs the admin token.
   *   - GetTournament and WatchTournament are public (no token: what every spectator sees).
   *     With a participant token the answer also holds that participant's seat tokens for
   *     the games of its tables; with the admin token, whether and when each external
   *     participant claimed its seat (never a token).
   * Tables are games of RefereeService, created with `allow_spectators`, so anyone may watch
   * them and read their history. An external participant plays its seats there with the
   * seat tokens GetTournament gives it. Bots play as ordinary clients of the same API.
   * Errors are those of RefereeService (a `google.rpc.ErrorInfo` with a stable reason):
   *   INVALID_ARGUMENT     malformed request (e.g. TABLE_SIZE_UNSUPPORTED, TOO_FEW_PARTICIPANTS)
   *   NOT_FOUND            TOURNAMENT_NOT_FOUND
   *   UNAUTHENTICATED      TOKEN_MISSING, TOKEN_INVALID (a token that is not this tournament's),
   *                        OPERATOR_KEY_REQUIRED (CreateTournament: a participant's player_id
   *                        without an operator key)
   *   PERMISSION_DENIED    ADMIN_TOKEN_REQUIRED (a participant token where the admin's is needed)
   *   NOT_FOUND            SEAT_CODE_INVALID (ClaimSeat: a code that is unknown, already
   *                        used or expired; one reason for all three)
   *   RESOURCE_EXHAUSTED   SEAT_CODE_ATTEMPTS_EXCEEDED (ClaimSeat: too many wrong codes from
   *                        this address; metadata `retry_after_seconds`)
   * </pre>
   */
  public static final class TournamentServiceStub extends io.grpc.stub.AbstractAsyncStub<TournamentServiceStub> {
    private TournamentServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected TournamentServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new TournamentServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * Create a tournament (not started yet). Returns its id, the admin token and one
     * one-time seat code per external participant. Its tables are rated (RatingService)
     * only when the caller presents an operator key (`x-referee-key`), even on a referee
     * where creating needs none: the key vouches for its participants' player ids. Without
     * one the tournament is played unrated (its standings' ratings are its own, as always).
     * </pre>
     */
    public void createTournament(referee.v1.TournamentOuterClass.CreateTournamentRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.CreateTournamentResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateTournamentMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Start it (admin token): round 1 is paired and its games created; bots start playing.
     * Idempotent: starting a running tournament on another process makes that process a
     * standby. One process directs at a time (a lease in the store); when the directing
     * process stops, a standby takes over within seconds and its bots play on from the
     * stored versions (the stopped bots' games were left waiting for their moves).
     * </pre>
     */
    public void startTournament(referee.v1.TournamentOuterClass.StartTournamentRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.StartTournamentResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getStartTournamentMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The tournament now, with its version.
     * </pre>
     */
    public void getTournament(referee.v1.TournamentOuterClass.GetTournamentRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.GetTournamentResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetTournamentMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * A stream of snapshots, one per version the watcher gets to see: a snapshot is the whole
     * tournament, so versions that changed in between are not lost, only merged. Resume
     * with `after_version` = the last version you saw. The stream ends after the snapshot
     * of the finished tournament.
     * </pre>
     */
    public void watchTournament(referee.v1.TournamentOuterClass.WatchTournamentRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.WatchTournamentResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getWatchTournamentMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Tournaments, the most recently changed first, as every spectator sees them (public,
     * like GetTournament). Expired tournaments drop out of the list with their records.
     * </pre>
     */
    public void listTournaments(referee.v1.TournamentOuterClass.ListTournamentsRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.ListTournamentsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListTournamentsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Redeem a seat code (no token needed): the participant token of the code's participant,
     * once. The code is then spent: a second claim, like an unknown or expired code, is
     * NOT_FOUND SEAT_CODE_INVALID, and of concurrent claims of one code exactly one wins.
     * Wrong codes from one address are limited per minute (RESOURCE_EXHAUSTED
     * SEAT_CODE_ATTEMPTS_EXCEEDED), so codes cannot be guessed.
     * </pre>
     */
    public void claimSeat(referee.v1.TournamentOuterClass.ClaimSeatRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.ClaimSeatResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getClaimSeatMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The admin's hand on a no-show at a table of the tournament (admin token): forfeit an
     * external participant's seat, as LobbyService.ForfeitSeat with the table admin token
     * would (placed last, the clock plays it at once; The Gang refuses FORFEIT_NOT_IN_GAME).
     * The tournament admin holds no table admin token (it would reissue a participant's seat
     * token), so this RPC is its one way to act on its tables, and only on these two.
     * Refusals besides the table's own (SEAT_FORFEITED, GAME_OVER, TABLE_ACTIONS_EXCEEDED):
     * UNAUTHENTICATED TOKEN_MISSING / TOKEN_INVALID, PERMISSION_DENIED ADMIN_TOKEN_REQUIRED,
     * NOT_FOUND TABLE_NOT_IN_TOURNAMENT (a game id that is no table of it),
     * PERMISSION_DENIED SEAT_NOT_AT_TABLE, FAILED_PRECONDITION SEAT_PLAYED_BY_BOT (a bot
     * participant's seat).
     * </pre>
     */
    public void forfeitTableSeat(referee.v1.TournamentOuterClass.ForfeitTableSeatRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.ForfeitTableSeatResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getForfeitTableSeatMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The same hand, giving the seat to the referee's bot, which plays it from then on (as
     * LobbyService.ReplaceSeatByBot): the participant's seat token for that table is refused
     * from then on (TOKEN_REVOKED); the seat keeps the participant's name and counts for it in
     * the standings. Refusals as ForfeitTableSeat's, and SEAT_ALREADY_BOT.
     * </pre>
     */
    public void replaceTableSeatByBot(referee.v1.TournamentOuterClass.ReplaceTableSeatByBotRequest request,
        io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.ReplaceTableSeatByBotResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReplaceTableSeatByBotMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * <pre>
   * TournamentService hosts tournaments of one game: several rounds, each a set of tables
   * played at the same time, with standings after every round, openskill ratings and a final
   * ranking. A tournament is stored like a game: one record with an integer version that
   * every change raises by one through a compare-and-set, so any referee process sharing the
   * store serves the same tournament. The process that started it directs it (creates each
   * round's games, runs the bot seats, records results, pairs the next round).
   * Authentication, as for games, with `authorization: Bearer &lt;token&gt;` metadata:
   *   - CreateTournament needs none and returns an admin token and one one-time seat code
   *     per external participant. The admin hands each person their code; that person
   *     redeems it once with ClaimSeat (no token) for their participant token. The referee
   *     stores only hashes of tokens and codes, and the admin never holds a participant's
   *     token or a seat token.
   *   - StartTournament needs the admin token.
   *   - GetTournament and WatchTournament are public (no token: what every spectator sees).
   *     With a participant token the answer also holds that participant's seat tokens for
   *     the games of its tables; with the admin token, whether and when each external
   *     participant claimed its seat (never a token).
   * Tables are games of RefereeService, created with `allow_spectators`, so anyone may watch
   * them and read their history. An external participant plays its seats there with the
   * seat tokens GetTournament gives it. Bots play as ordinary clients of the same API.
   * Errors are those of RefereeService (a `google.rpc.ErrorInfo` with a stable reason):
   *   INVALID_ARGUMENT     malformed request (e.g. TABLE_SIZE_UNSUPPORTED, TOO_FEW_PARTICIPANTS)
   *   NOT_FOUND            TOURNAMENT_NOT_FOUND
   *   UNAUTHENTICATED      TOKEN_MISSING, TOKEN_INVALID (a token that is not this tournament's),
   *                        OPERATOR_KEY_REQUIRED (CreateTournament: a participant's player_id
   *                        without an operator key)
   *   PERMISSION_DENIED    ADMIN_TOKEN_REQUIRED (a participant token where the admin's is needed)
   *   NOT_FOUND            SEAT_CODE_INVALID (ClaimSeat: a code that is unknown, already
   *                        used or expired; one reason for all three)
   *   RESOURCE_EXHAUSTED   SEAT_CODE_ATTEMPTS_EXCEEDED (ClaimSeat: too many wrong codes from
   *                        this address; metadata `retry_after_seconds`)
   * </pre>
   */
  public static final class TournamentServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<TournamentServiceBlockingStub> {
    private TournamentServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected TournamentServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new TournamentServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * Create a tournament (not started yet). Returns its id, the admin token and one
     * one-time seat code per external participant. Its tables are rated (RatingService)
     * only when the caller presents an operator key (`x-referee-key`), even on a referee
     * where creating needs none: the key vouches for its participants' player ids. Without
     * one the tournament is played unrated (its standings' ratings are its own, as always).
     * </pre>
     */
    public referee.v1.TournamentOuterClass.CreateTournamentResponse createTournament(referee.v1.TournamentOuterClass.CreateTournamentRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateTournamentMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Start it (admin token): round 1 is paired and its games created; bots start playing.
     * Idempotent: starting a running tournament on another process makes that process a
     * standby. One process directs at a time (a lease in the store); when the directing
     * process stops, a standby takes over within seconds and its bots play on from the
     * stored versions (the stopped bots' games were left waiting for their moves).
     * </pre>
     */
    public referee.v1.TournamentOuterClass.StartTournamentResponse startTournament(referee.v1.TournamentOuterClass.StartTournamentRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getStartTournamentMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The tournament now, with its version.
     * </pre>
     */
    public referee.v1.TournamentOuterClass.GetTournamentResponse getTournament(referee.v1.TournamentOuterClass.GetTournamentRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetTournamentMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * A stream of snapshots, one per version the watcher gets to see: a snapshot is the whole
     * tournament, so versions that changed in between are not lost, only merged. Resume
     * with `after_version` = the last version you saw. The stream ends after the snapshot
     * of the finished tournament.
     * </pre>
     */
    public java.util.Iterator<referee.v1.TournamentOuterClass.WatchTournamentResponse> watchTournament(
        referee.v1.TournamentOuterClass.WatchTournamentRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getWatchTournamentMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Tournaments, the most recently changed first, as every spectator sees them (public,
     * like GetTournament). Expired tournaments drop out of the list with their records.
     * </pre>
     */
    public referee.v1.TournamentOuterClass.ListTournamentsResponse listTournaments(referee.v1.TournamentOuterClass.ListTournamentsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListTournamentsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Redeem a seat code (no token needed): the participant token of the code's participant,
     * once. The code is then spent: a second claim, like an unknown or expired code, is
     * NOT_FOUND SEAT_CODE_INVALID, and of concurrent claims of one code exactly one wins.
     * Wrong codes from one address are limited per minute (RESOURCE_EXHAUSTED
     * SEAT_CODE_ATTEMPTS_EXCEEDED), so codes cannot be guessed.
     * </pre>
     */
    public referee.v1.TournamentOuterClass.ClaimSeatResponse claimSeat(referee.v1.TournamentOuterClass.ClaimSeatRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getClaimSeatMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The admin's hand on a no-show at a table of the tournament (admin token): forfeit an
     * external participant's seat, as LobbyService.ForfeitSeat with the table admin token
     * would (placed last, the clock plays it at once; The Gang refuses FORFEIT_NOT_IN_GAME).
     * The tournament admin holds no table admin token (it would reissue a participant's seat
     * token), so this RPC is its one way to act on its tables, and only on these two.
     * Refusals besides the table's own (SEAT_FORFEITED, GAME_OVER, TABLE_ACTIONS_EXCEEDED):
     * UNAUTHENTICATED TOKEN_MISSING / TOKEN_INVALID, PERMISSION_DENIED ADMIN_TOKEN_REQUIRED,
     * NOT_FOUND TABLE_NOT_IN_TOURNAMENT (a game id that is no table of it),
     * PERMISSION_DENIED SEAT_NOT_AT_TABLE, FAILED_PRECONDITION SEAT_PLAYED_BY_BOT (a bot
     * participant's seat).
     * </pre>
     */
    public referee.v1.TournamentOuterClass.ForfeitTableSeatResponse forfeitTableSeat(referee.v1.TournamentOuterClass.ForfeitTableSeatRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getForfeitTableSeatMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The same hand, giving the seat to the referee's bot, which plays it from then on (as
     * LobbyService.ReplaceSeatByBot): the participant's seat token for that table is refused
     * from then on (TOKEN_REVOKED); the seat keeps the participant's name and counts for it in
     * the standings. Refusals as ForfeitTableSeat's, and SEAT_ALREADY_BOT.
     * </pre>
     */
    public referee.v1.TournamentOuterClass.ReplaceTableSeatByBotResponse replaceTableSeatByBot(referee.v1.TournamentOuterClass.ReplaceTableSeatByBotRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReplaceTableSeatByBotMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * TournamentService hosts tournaments of one game: several rounds, each a set of tables
   * played at the same time, with standings after every round, openskill ratings and a final
   * ranking. A tournament is stored like a game: one record with an integer version that
   * every change raises by one through a compare-and-set, so any referee process sharing the
   * store serves the same tournament. The process that started it directs it (creates each
   * round's games, runs the bot seats, records results, pairs the next round).
   * Authentication, as for games, with `authorization: Bearer &lt;token&gt;` metadata:
   *   - CreateTournament needs none and returns an admin token and one one-time seat code
   *     per external participant. The admin hands each person their code; that person
   *     redeems it once with ClaimSeat (no token) for their participant token. The referee
   *     stores only hashes of tokens and codes, and the admin never holds a participant's
   *     token or a seat token.
   *   - StartTournament needs the admin token.
   *   - GetTournament and WatchTournament are public (no token: what every spectator sees).
   *     With a participant token the answer also holds that participant's seat tokens for
   *     the games of its tables; with the admin token, whether and when each external
   *     participant claimed its seat (never a token).
   * Tables are games of RefereeService, created with `allow_spectators`, so anyone may watch
   * them and read their history. An external participant plays its seats there with the
   * seat tokens GetTournament gives it. Bots play as ordinary clients of the same API.
   * Errors are those of RefereeService (a `google.rpc.ErrorInfo` with a stable reason):
   *   INVALID_ARGUMENT     malformed request (e.g. TABLE_SIZE_UNSUPPORTED, TOO_FEW_PARTICIPANTS)
   *   NOT_FOUND            TOURNAMENT_NOT_FOUND
   *   UNAUTHENTICATED      TOKEN_MISSING, TOKEN_INVALID (a token that is not this tournament's),
   *                        OPERATOR_KEY_REQUIRED (CreateTournament: a participant's player_id
   *                        without an operator key)
   *   PERMISSION_DENIED    ADMIN_TOKEN_REQUIRED (a participant token where the admin's is needed)
   *   NOT_FOUND            SEAT_CODE_INVALID (ClaimSeat: a code that is unknown, already
   *                        used or expired; one reason for all three)
   *   RESOURCE_EXHAUSTED   SEAT_CODE_ATTEMPTS_EXCEEDED (ClaimSeat: too many wrong codes from
   *                        this address; metadata `retry_after_seconds`)
   * </pre>
   */
  public static final class TournamentServiceFutureStub extends io.grpc.stub.AbstractFutureStub<TournamentServiceFutureStub> {
    private TournamentServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected TournamentServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new TournamentServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * Create a tournament (not started yet). Returns its id, the admin token and one
     * one-time seat code per external participant. Its tables are rated (RatingService)
     * only when the caller presents an operator key (`x-referee-key`), even on a referee
     * where creating needs none: the key vouches for its participants' player ids. Without
     * one the tournament is played unrated (its standings' ratings are its own, as always).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.TournamentOuterClass.CreateTournamentResponse> createTournament(
        referee.v1.TournamentOuterClass.CreateTournamentRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateTournamentMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Start it (admin token): round 1 is paired and its games created; bots start playing.
     * Idempotent: starting a running tournament on another process makes that process a
     * standby. One process directs at a time (a lease in the store); when the directing
     * process stops, a standby takes over within seconds and its bots play on from the
     * stored versions (the stopped bots' games were left waiting for their moves).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.TournamentOuterClass.StartTournamentResponse> startTournament(
        referee.v1.TournamentOuterClass.StartTournamentRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getStartTournamentMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The tournament now, with its version.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.TournamentOuterClass.GetTournamentResponse> getTournament(
        referee.v1.TournamentOuterClass.GetTournamentRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetTournamentMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Tournaments, the most recently changed first, as every spectator sees them (public,
     * like GetTournament). Expired tournaments drop out of the list with their records.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.TournamentOuterClass.ListTournamentsResponse> listTournaments(
        referee.v1.TournamentOuterClass.ListTournamentsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListTournamentsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Redeem a seat code (no token needed): the participant token of the code's participant,
     * once. The code is then spent: a second claim, like an unknown or expired code, is
     * NOT_FOUND SEAT_CODE_INVALID, and of concurrent claims of one code exactly one wins.
     * Wrong codes from one address are limited per minute (RESOURCE_EXHAUSTED
     * SEAT_CODE_ATTEMPTS_EXCEEDED), so codes cannot be guessed.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.TournamentOuterClass.ClaimSeatResponse> claimSeat(
        referee.v1.TournamentOuterClass.ClaimSeatRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getClaimSeatMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The admin's hand on a no-show at a table of the tournament (admin token): forfeit an
     * external participant's seat, as LobbyService.ForfeitSeat with the table admin token
     * would (placed last, the clock plays it at once; The Gang refuses FORFEIT_NOT_IN_GAME).
     * The tournament admin holds no table admin token (it would reissue a participant's seat
     * token), so this RPC is its one way to act on its tables, and only on these two.
     * Refusals besides the table's own (SEAT_FORFEITED, GAME_OVER, TABLE_ACTIONS_EXCEEDED):
     * UNAUTHENTICATED TOKEN_MISSING / TOKEN_INVALID, PERMISSION_DENIED ADMIN_TOKEN_REQUIRED,
     * NOT_FOUND TABLE_NOT_IN_TOURNAMENT (a game id that is no table of it),
     * PERMISSION_DENIED SEAT_NOT_AT_TABLE, FAILED_PRECONDITION SEAT_PLAYED_BY_BOT (a bot
     * participant's seat).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.TournamentOuterClass.ForfeitTableSeatResponse> forfeitTableSeat(
        referee.v1.TournamentOuterClass.ForfeitTableSeatRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getForfeitTableSeatMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The same hand, giving the seat to the referee's bot, which plays it from then on (as
     * LobbyService.ReplaceSeatByBot): the participant's seat token for that table is refused
     * from then on (TOKEN_REVOKED); the seat keeps the participant's name and counts for it in
     * the standings. Refusals as ForfeitTableSeat's, and SEAT_ALREADY_BOT.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.TournamentOuterClass.ReplaceTableSeatByBotResponse> replaceTableSeatByBot(
        referee.v1.TournamentOuterClass.ReplaceTableSeatByBotRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReplaceTableSeatByBotMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_CREATE_TOURNAMENT = 0;
  private static final int METHODID_START_TOURNAMENT = 1;
  private static final int METHODID_GET_TOURNAMENT = 2;
  private static final int METHODID_WATCH_TOURNAMENT = 3;
  private static final int METHODID_LIST_TOURNAMENTS = 4;
  private static final int METHODID_CLAIM_SEAT = 5;
  private static final int METHODID_FORFEIT_TABLE_SEAT = 6;
  private static final int METHODID_REPLACE_TABLE_SEAT_BY_BOT = 7;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final TournamentServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(TournamentServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_CREATE_TOURNAMENT:
          serviceImpl.createTournament((referee.v1.TournamentOuterClass.CreateTournamentRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.CreateTournamentResponse>) responseObserver);
          break;
        case METHODID_START_TOURNAMENT:
          serviceImpl.startTournament((referee.v1.TournamentOuterClass.StartTournamentRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.StartTournamentResponse>) responseObserver);
          break;
        case METHODID_GET_TOURNAMENT:
          serviceImpl.getTournament((referee.v1.TournamentOuterClass.GetTournamentRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.GetTournamentResponse>) responseObserver);
          break;
        case METHODID_WATCH_TOURNAMENT:
          serviceImpl.watchTournament((referee.v1.TournamentOuterClass.WatchTournamentRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.WatchTournamentResponse>) responseObserver);
          break;
        case METHODID_LIST_TOURNAMENTS:
          serviceImpl.listTournaments((referee.v1.TournamentOuterClass.ListTournamentsRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.ListTournamentsResponse>) responseObserver);
          break;
        case METHODID_CLAIM_SEAT:
          serviceImpl.claimSeat((referee.v1.TournamentOuterClass.ClaimSeatRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.ClaimSeatResponse>) responseObserver);
          break;
        case METHODID_FORFEIT_TABLE_SEAT:
          serviceImpl.forfeitTableSeat((referee.v1.TournamentOuterClass.ForfeitTableSeatRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.ForfeitTableSeatResponse>) responseObserver);
          break;
        case METHODID_REPLACE_TABLE_SEAT_BY_BOT:
          serviceImpl.replaceTableSeatByBot((referee.v1.TournamentOuterClass.ReplaceTableSeatByBotRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.TournamentOuterClass.ReplaceTableSeatByBotResponse>) responseObserver);
          break;
        default:
          throw new AssertionError();
      }
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public io.grpc.stub.StreamObserver<Req> invoke(
        io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        default:
          throw new AssertionError();
      }
    }
  }

  private static abstract class TournamentServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    TournamentServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return referee.v1.TournamentOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("TournamentService");
    }
  }

  private static final class TournamentServiceFileDescriptorSupplier
      extends TournamentServiceBaseDescriptorSupplier {
    TournamentServiceFileDescriptorSupplier() {}
  }

  private static final class TournamentServiceMethodDescriptorSupplier
      extends TournamentServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    TournamentServiceMethodDescriptorSupplier(String methodName) {
      this.methodName = methodName;
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.MethodDescriptor getMethodDescriptor() {
      return getServiceDescriptor().findMethodByName(methodName);
    }
  }

  private static volatile io.grpc.ServiceDescriptor serviceDescriptor;

  public static io.grpc.ServiceDescriptor getServiceDescriptor() {
    io.grpc.ServiceDescriptor result = serviceDescriptor;
    if (result == null) {
      synchronized (TournamentServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new TournamentServiceFileDescriptorSupplier())
              .addMethod(getCreateTournamentMethod())
              .addMethod(getStartTournamentMethod())
              .addMethod(getGetTournamentMethod())
              .addMethod(getWatchTournamentMethod())
              .addMethod(getListTournamentsMethod())
              .addMethod(getClaimSeatMethod())
              .addMethod(getForfeitTableSeatMethod())
              .addMethod(getReplaceTableSeatByBotMethod())
              .build();
        }
      }
    }
    return result;
  }
}
