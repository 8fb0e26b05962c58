package referee.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * RefereeService hosts turn-based and simultaneous card games. It is authoritative: every
 * move is checked against the rules before it is stored, and every answer holds only what
 * the calling seat may know.
 * Authentication: every call except CreateGame and VerifyHistory identifies its caller by the seat token
 * returned from CreateGame, sent as gRPC metadata `authorization: Bearer &lt;token&gt;`.
 * A call without a token is a spectator: allowed only for GetView, WatchGame and
 * GetHistory, and only on games created with `allow_spectators`.
 * Errors: every rejection carries a `google.rpc.ErrorInfo` detail (domain
 * "referee.v1") whose `reason` is a stable UPPER_SNAKE_CASE code you can switch on,
 * e.g. CHIP_ALREADY_HELD, VERSION_MISMATCH, GAME_NOT_FOUND. A rejected call changes nothing.
 *   INVALID_ARGUMENT     malformed request or move shape
 *   FAILED_PRECONDITION  move against the rules now (wrong round, game over, ...)
 *   ABORTED              `expected_version` is stale; metadata "current_version" has the new one
 *   NOT_FOUND            unknown game id
 *   UNAUTHENTICATED      missing or invalid token
 *   PERMISSION_DENIED    valid token, but for another game or seat
 * </pre>
 */
@javax.annotation.Generated(
    value = "by gRPC proto compiler",
    comments = "Source: referee/v1/referee.proto")
@io.grpc.stub.annotations.GrpcGenerated
public final class RefereeServiceGrpc {

  private RefereeServiceGrpc() {}

  public static final String SERVICE_NAME = "referee.v1.RefereeService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<referee.v1.Referee.CreateGameRequest,
      referee.v1.Referee.CreateGameResponse> getCreateGameMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateGame",
      requestType = referee.v1.Referee.CreateGameRequest.class,
      responseType = referee.v1.Referee.CreateGameResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Referee.CreateGameRequest,
      referee.v1.Referee.CreateGameResponse> getCreateGameMethod() {
    io.grpc.MethodDescriptor<referee.v1.Referee.CreateGameRequest, referee.v1.Referee.CreateGameResponse> getCreateGameMethod;
    if ((getCreateGameMethod = RefereeServiceGrpc.getCreateGameMethod) == null) {
      synchronized (RefereeServiceGrpc.class) {
        if ((getCreateGameMethod = RefereeServiceGrpc.getCreateGameMethod) == null) {
          RefereeServiceGrpc.getCreateGameMethod = getCreateGameMethod =
              io.grpc.MethodDescriptor.<referee.v1.Referee.CreateGameRequest, referee.v1.Referee.CreateGameResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateGame"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.CreateGameRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.CreateGameResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RefereeServiceMethodDescriptorSupplier("CreateGame"))
              .build();
        }
      }
    }
    return getCreateGameMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Referee.GetViewRequest,
      referee.v1.Referee.GetViewResponse> getGetViewMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetView",
      requestType = referee.v1.Referee.GetViewRequest.class,
      responseType = referee.v1.Referee.GetViewResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Referee.GetViewRequest,
      referee.v1.Referee.GetViewResponse> getGetViewMethod() {
    io.grpc.MethodDescriptor<referee.v1.Referee.GetViewRequest, referee.v1.Referee.GetViewResponse> getGetViewMethod;
    if ((getGetViewMethod = RefereeServiceGrpc.getGetViewMethod) == null) {
      synchronized (RefereeServiceGrpc.class) {
        if ((getGetViewMethod = RefereeServiceGrpc.getGetViewMethod) == null) {
          RefereeServiceGrpc.getGetViewMethod = getGetViewMethod =
              io.grpc.MethodDescriptor.<referee.v1.Referee.GetViewRequest, referee.v1.Referee.GetViewResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetView"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.GetViewRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.GetViewResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RefereeServiceMethodDescriptorSupplier("GetView"))
              .build();
        }
      }
    }
    return getGetViewMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Referee.ListLegalMovesRequest,
      referee.v1.Referee.ListLegalMovesResponse> getListLegalMovesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListLegalMoves",
      requestType = referee.v1.Referee.ListLegalMovesRequest.class,
      responseType = referee.v1.Referee.ListLegalMovesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Referee.ListLegalMovesRequest,
      referee.v1.Referee.ListLegalMovesResponse> getListLegalMovesMethod() {
    io.grpc.MethodDescriptor<referee.v1.Referee.ListLegalMovesRequest, referee.v1.Referee.ListLegalMovesResponse> getListLegalMovesMethod;
    if ((getListLegalMovesMethod = RefereeServiceGrpc.getListLegalMovesMethod) == null) {
      synchronized (RefereeServiceGrpc.class) {
        if ((getListLegalMovesMethod = RefereeServiceGrpc.getListLegalMovesMethod) == null) {
          RefereeServiceGrpc.getListLegalMovesMethod = getListLegalMovesMethod =
              io.grpc.MethodDescriptor.<referee.v1.Referee.ListLegalMovesRequest, referee.v1.Referee.ListLegalMovesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListLegalMoves"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.ListLegalMovesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.ListLegalMovesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RefereeServiceMethodDescriptorSupplier("ListLegalMoves"))
              .build();
        }
      }
    }
    return getListLegalMovesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Referee.SubmitMoveRequest,
      referee.v1.Referee.SubmitMoveResponse> getSubmitMoveMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SubmitMove",
      requestType = referee.v1.Referee.SubmitMoveRequest.class,
      responseType = referee.v1.Referee.SubmitMoveResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Referee.SubmitMoveRequest,
      referee.v1.Referee.SubmitMoveResponse> getSubmitMoveMethod() {
    io.grpc.MethodDescriptor<referee.v1.Referee.SubmitMoveRequest, referee.v1.Referee.SubmitMoveResponse> getSubmitMoveMethod;
    if ((getSubmitMoveMethod = RefereeServiceGrpc.getSubmitMoveMethod) == null) {
      synchronized (RefereeServiceGrpc.class) {
        if ((getSubmitMoveMethod = RefereeServiceGrpc.getSubmitMoveMethod) == null) {
          RefereeServiceGrpc.getSubmitMoveMethod = getSubmitMoveMethod =
              io.grpc.MethodDescriptor.<referee.v1.Referee.SubmitMoveRequest, referee.v1.Referee.SubmitMoveResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SubmitMove"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.SubmitMoveRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.SubmitMoveResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RefereeServiceMethodDescriptorSupplier("SubmitMove"))
              .build();
        }
      }
    }
    return getSubmitMoveMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Referee.ValidateMoveRequest,
      referee.v1.Referee.ValidateMoveResponse> getValidateMoveMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ValidateMove",
      requestType = referee.v1.Referee.ValidateMoveRequest.class,
      responseType = referee.v1.Referee.ValidateMoveResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Referee.ValidateMoveRequest,
      referee.v1.Referee.ValidateMoveResponse> getValidateMoveMethod() {
    io.grpc.MethodDescriptor<referee.v1.Referee.ValidateMoveRequest, referee.v1.Referee.ValidateMoveResponse> getValidateMoveMethod;
    if ((getValidateMoveMethod = RefereeServiceGrpc.getValidateMoveMethod) == null) {
      synchronized (RefereeServiceGrpc.class) {
        if ((getValidateMoveMethod = RefereeServiceGrpc.getValidateMoveMethod) == null) {
          RefereeServiceGrpc.getValidateMoveMethod = getValidateMoveMethod =
              io.grpc.MethodDescriptor.<referee.v1.Referee.ValidateMoveRequest, referee.v1.Referee.ValidateMoveResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ValidateMove"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.ValidateMoveRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.ValidateMoveResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RefereeServiceMethodDescriptorSupplier("ValidateMove"))
              .build();
        }
      }
    }
    return getValidateMoveMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Referee.WatchGameRequest,
      referee.v1.Referee.WatchGameResponse> getWatchGameMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "WatchGame",
      requestType = referee.v1.Referee.WatchGameRequest.class,
      responseType = referee.v1.Referee.WatchGameResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<referee.v1.Referee.WatchGameRequest,
      referee.v1.Referee.WatchGameResponse> getWatchGameMethod() {
    io.grpc.MethodDescriptor<referee.v1.Referee.WatchGameRequest, referee.v1.Referee.WatchGameResponse> getWatchGameMethod;
    if ((getWatchGameMethod = RefereeServiceGrpc.getWatchGameMethod) == null) {
      synchronized (RefereeServiceGrpc.class) {
        if ((getWatchGameMethod = RefereeServiceGrpc.getWatchGameMethod) == null) {
          RefereeServiceGrpc.getWatchGameMethod = getWatchGameMethod =
              io.grpc.MethodDescriptor.<referee.v1.Referee.WatchGameRequest, referee.v1.Referee.WatchGameResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "WatchGame"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.WatchGameRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.WatchGameResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RefereeServiceMethodDescriptorSupplier("WatchGame"))
              .build();
        }
      }
    }
    return getWatchGameMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Referee.GetHistoryRequest,
      referee.v1.Referee.GetHistoryResponse> getGetHistoryMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetHistory",
      requestType = referee.v1.Referee.GetHistoryRequest.class,
      responseType = referee.v1.Referee.GetHistoryResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Referee.GetHistoryRequest,
      referee.v1.Referee.GetHistoryResponse> getGetHistoryMethod() {
    io.grpc.MethodDescriptor<referee.v1.Referee.GetHistoryRequest, referee.v1.Referee.GetHistoryResponse> getGetHistoryMethod;
    if ((getGetHistoryMethod = RefereeServiceGrpc.getGetHistoryMethod) == null) {
      synchronized (RefereeServiceGrpc.class) {
        if ((getGetHistoryMethod = RefereeServiceGrpc.getGetHistoryMethod) == null) {
          RefereeServiceGrpc.getGetHistoryMethod = getGetHistoryMethod =
              io.grpc.MethodDescriptor.<referee.v1.Referee.GetHistoryRequest, referee.v1.Referee.GetHistoryResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetHistory"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.GetHistoryRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.GetHistoryResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RefereeServiceMethodDescriptorSupplier("GetHistory"))
              .build();
        }
      }
    }
    return getGetHistoryMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Referee.PlayRequest,
      referee.v1.Referee.PlayResponse> getPlayMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Play",
      requestType = referee.v1.Referee.PlayRequest.class,
      responseType = referee.v1.Referee.PlayResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
  public static io.grpc.MethodDescriptor<referee.v1.Referee.PlayRequest,
      referee.v1.Referee.PlayResponse> getPlayMethod() {
    io.grpc.MethodDescriptor<referee.v1.Referee.PlayRequest, referee.v1.Referee.PlayResponse> getPlayMethod;
    if ((getPlayMethod = RefereeServiceGrpc.getPlayMethod) == null) {
      synchronized (RefereeServiceGrpc.class) {
        if ((getPlayMethod = RefereeServiceGrpc.getPlayMethod) == null) {
          RefereeServiceGrpc.getPlayMethod = getPlayMethod =
              io.grpc.MethodDescriptor.<referee.v1.Referee.PlayRequest, referee.v1.Referee.PlayResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Play"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.PlayRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.PlayResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RefereeServiceMethodDescriptorSupplier("Play"))
              .build();
        }
      }
    }
    return getPlayMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Referee.VerifyHistoryRequest,
      referee.v1.Referee.VerifyHistoryResponse> getVerifyHistoryMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "VerifyHistory",
      requestType = referee.v1.Referee.VerifyHistoryRequest.class,
      responseType = referee.v1.Referee.VerifyHistoryResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Referee.VerifyHistoryRequest,
      referee.v1.Referee.VerifyHistoryResponse> getVerifyHistoryMethod() {
    io.grpc.MethodDescriptor<referee.v1.Referee.VerifyHistoryRequest, referee.v1.Referee.VerifyHistoryResponse> getVerifyHistoryMethod;
    if ((getVerifyHistoryMethod = RefereeServiceGrpc.getVerifyHistoryMethod) == null) {
      synchronized (RefereeServiceGrpc.class) {
        if ((getVerifyHistoryMethod = RefereeServiceGrpc.getVerifyHistoryMethod) == null) {
          RefereeServiceGrpc.getVerifyHistoryMethod = getVerifyHistoryMethod =
              io.grpc.MethodDescriptor.<referee.v1.Referee.VerifyHistoryRequest, referee.v1.Referee.VerifyHistoryResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "VerifyHistory"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.VerifyHistoryRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Referee.VerifyHistoryResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RefereeServiceMethodDescriptorSupplier("VerifyHistory"))
              .build();
        }
      }
    }
    return getVerifyHistoryMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static RefereeServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RefereeServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RefereeServiceStub>() {
        @java.lang.Override
        public RefereeServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RefereeServiceStub(channel, callOptions);
        }
      };
    return RefereeServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static RefereeServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RefereeServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RefereeServiceBlockingStub>() {
        @java.lang.Override
        public RefereeServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RefereeServiceBlockingStub(channel, callOptions);
        }
      };
    return RefereeServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static RefereeServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RefereeServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RefereeServiceFutureStub>() {
        @java.lang.Override
        public RefereeServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RefereeServiceFutureStub(channel, callOptions);
        }
      };
    return RefereeServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * RefereeService hosts turn-based and simultaneous card games. It is authoritative: every
   * move is checked against the rules before it is stored, and every answer holds only what
   * the calling seat may know.
   * Authentication: every call except CreateGame and VerifyHistory identifies its caller by the seat token
   * returned from CreateGame, sent as gRPC metadata `authorization: Bearer &lt;token&gt;`.
   * A call without a token is a spectator: allowed only for GetView, WatchGame and
   * GetHistory, and only on games created with `allow_spectators`.
   * Errors: every rejection carries a `google.rpc.ErrorInfo` detail (domain
   * "referee.v1") whose `reason` is a stable UPPER_SNAKE_CASE code you can switch on,
   * e.g. CHIP_ALREADY_HELD, VERSION_MISMATCH, GAME_NOT_FOUND. A rejected call changes nothing.
   *   INVALID_ARGUMENT     malformed request or move shape
   *   FAILED_PRECONDITION  move against the rules now (wrong round, game over, ...)
   *   ABORTED              `expected_version` is stale; metadata "current_version" has the new one
   *   NOT_FOUND            unknown game id
   *   UNAUTHENTICATED      missing or invalid token
   *   PERMISSION_DENIED    valid token, but for another game or seat
   * </pre>
   */
  public static abstract class RefereeServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * Create a table. Returns the game id, one secret token per seat (hand each to its
     * player only) and the sha256 commitment of the random seed, revealed when the game ends.
     * </pre>
     */
    public void createGame(referee.v1.Referee.CreateGameRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.CreateGameResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateGameMethod(), responseObserver);
    }

    /**
     * <pre>
     * The caller's current view of the table, with its version.
     * </pre>
     */
    public void getView(referee.v1.Referee.GetViewRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.GetViewResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetViewMethod(), responseObserver);
    }

    /**
     * <pre>
     * Every move the calling seat may make now. Exactly the moves SubmitMove would accept.
     * </pre>
     */
    public void listLegalMoves(referee.v1.Referee.ListLegalMovesRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.ListLegalMovesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListLegalMovesMethod(), responseObserver);
    }

    /**
     * <pre>
     * Play a move. Idempotent per (seat, client_move_id): a repeat returns the first result.
     * </pre>
     */
    public void submitMove(referee.v1.Referee.SubmitMoveRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.SubmitMoveResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getSubmitMoveMethod(), responseObserver);
    }

    /**
     * <pre>
     * Dry run: would this move be accepted now? Applies nothing.
     * </pre>
     */
    public void validateMove(referee.v1.Referee.ValidateMoveRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.ValidateMoveResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getValidateMoveMethod(), responseObserver);
    }

    /**
     * <pre>
     * A stream of the caller's redacted updates: one message per version, each with the
     * events that move caused (as the caller may see them) and the caller's view after it.
     * </pre>
     */
    public void watchGame(referee.v1.Referee.WatchGameRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.WatchGameResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getWatchGameMethod(), responseObserver);
    }

    /**
     * <pre>
     * The move log as the caller may see it; the full log and the seed once the game is over.
     * One page of entries per call: follow `next_page_token` until it is empty.
     * </pre>
     */
    public void getHistory(referee.v1.Referee.GetHistoryRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.GetHistoryResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetHistoryMethod(), responseObserver);
    }

    /**
     * <pre>
     * One seat's game over one bidirectional stream, for bots and real-time frontends: the
     * seat's updates (exactly as WatchGame sends them) and the answers to its moves on one
     * connection, instead of a unary round trip per move. Needs HTTP/2: call it on the gRPC
     * port (the HTTP/JSON port speaks HTTP/1.1, which cannot carry a bidirectional stream).
     * Send a `join` first (anything else ends the call with INVALID_ARGUMENT
     * PLAY_JOIN_FIRST), then `submit` and `list_legal_moves` at any time. A seat token is
     * required. The referee answers every request, in the order sent, with one
     * `move_result`, `legal_moves` or `rejection`; updates keep arriving in version order in
     * between. A move's `move_result` comes after the update of the version it produced, so
     * you already hold the view it led to. A rejected move does not end the call: it is
     * answered in-band with exactly the status code, reason and metadata SubmitMove would
     * give (UNAVAILABLE too, when the store could not be reached: send it again); validation,
     * versioning and idempotency are SubmitMove's. Errors at join (bad token, unknown game,
     * bad `after_version`) end the call with the usual status and ErrorInfo, and a referee
     * shutting down ends it with UNAVAILABLE.
     * The call ends (status OK) once the game is over and you have closed your side.
     * After a drop, call again with `after_version` set to the last version you received and
     * send again the moves you had no answer for, with the same `client_move_id`: a move
     * that was applied is not applied twice, its answer comes back with `duplicate` set.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<referee.v1.Referee.PlayRequest> play(
        io.grpc.stub.StreamObserver<referee.v1.Referee.PlayResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getPlayMethod(), responseObserver);
    }

    /**
     * <pre>
     * Fairness check of a finished game, by anyone (no token): re-deal from the revealed
     * seed and re-run every move of `history` (a GetHistoryResponse, as any seat or spectator
     * received it), comparing each move's events, the outcome and any `views` the caller
     * recorded (e.g. from WatchGame, revealed ones too: View.revealed says which view of the
     * replay each is compared with) with the replay. Reads nothing stored: the answer
     * depends only on the request, so any referee, or `referee verify` offline, gives the
     * same one. A history that does not verify is an answer (`verified` false), not an error.
     * It also checks the hash chain of the move log: every entry's `log_entry` against its
     * version, seat and move, every `head` from the seed commitment, and every view's `head`
     * against the chain at the view's version (so a kept view pins the history before it).
     * </pre>
     */
    public void verifyHistory(referee.v1.Referee.VerifyHistoryRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.VerifyHistoryResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getVerifyHistoryMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getCreateGameMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Referee.CreateGameRequest,
                referee.v1.Referee.CreateGameResponse>(
                  this, METHODID_CREATE_GAME)))
          .addMethod(
            getGetViewMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Referee.GetViewRequest,
                referee.v1.Referee.GetViewResponse>(
                  this, METHODID_GET_VIEW)))
          .addMethod(
            getListLegalMovesMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Referee.ListLegalMovesRequest,
                referee.v1.Referee.ListLegalMovesResponse>(
                  this, METHODID_LIST_LEGAL_MOVES)))
          .addMethod(
            getSubmitMoveMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Referee.SubmitMoveRequest,
                referee.v1.Referee.SubmitMoveResponse>(
                  this, METHODID_SUBMIT_MOVE)))
          .addMethod(
            getValidateMoveMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Referee.ValidateMoveRequest,
                referee.v1.Referee.ValidateMoveResponse>(
                  this, METHODID_VALIDATE_MOVE)))
          .addMethod(
            getWatchGameMethod(),
            io.grpc.stub.ServerCalls.asyncServerStreamingCall(
              new MethodHandlers<
                referee.v1.Referee.WatchGameRequest,
                referee.v1.Referee.WatchGameResponse>(
                  this, METHODID_WATCH_GAME)))
          .addMethod(
            getGetHistoryMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Referee.GetHistoryRequest,
                referee.v1.Referee.GetHistoryResponse>(
                  this, METHODID_GET_HISTORY)))
          .addMethod(
            getPlayMethod(),
            io.grpc.stub.ServerCalls.asyncBidiStreamingCall(
              new MethodHandlers<
                referee.v1.Referee.PlayRequest,
                referee.v1.Referee.PlayResponse>(
                  this, METHODID_PLAY)))
          .addMethod(
            getVerifyHistoryMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Referee.VerifyHistoryRequest,
                referee.v1.Referee.VerifyHistoryResponse>(
                  this, METHODID_VERIFY_HISTORY)))
          .build();
    }
  }

  /**
   * <pre>
   * RefereeService hosts turn-based and simultaneous card games. It is authoritative: every
   * move is checked against the rules before it is stored, and every answer holds only what
   * the calling seat may know.
   * Authentication: every call except CreateGame and VerifyHistory identifies its caller by the seat token
   * returned from CreateGame, sent as gRPC metadata `authorization: Bearer &lt;token&gt;`.
   * A call without a token is a spectator: allowed only for GetView, WatchGame and
   * GetHistory, and only on games created with `allow_spectators`.
   * Errors: every rejection carries a `google.rpc.ErrorInfo` detail (domain
   * "referee.v1") whose `reason` is a stable UPPER_SNAKE_CASE code you can switch on,
   * e.g. CHIP_ALREADY_HELD, VERSION_MISMATCH, GAME_NOT_FOUND. A rejected call changes nothing.
   *   INVALID_ARGUMENT     malformed request or move shape
   *   FAILED_PRECONDITION  move against the rules now (wrong round, game over, ...)
   *   ABORTED              `expected_version` is stale; metadata "current_version" has the new one
   *   NOT_FOUND            unknown game id
   *   UNAUTHENTICATED      missing or invalid token
   *   PERMISSION_DENIED    valid token, but for another game or seat
   * </pre>
   */
  public static final class RefereeServiceStub extends io.grpc.stub.AbstractAsyncStub<RefereeServiceStub> {
    private RefereeServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RefereeServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RefereeServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * Create a table. Returns the game id, one secret token per seat (hand each to its
     * player only) and the sha256 commitment of the random seed, revealed when the game ends.
     * </pre>
     */
    public void createGame(referee.v1.Referee.CreateGameRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.CreateGameResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateGameMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The caller's current view of the table, with its version.
     * </pre>
     */
    public void getView(referee.v1.Referee.GetViewRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.GetViewResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetViewMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Every move the calling seat may make now. Exactly the moves SubmitMove would accept.
     * </pre>
     */
    public void listLegalMoves(referee.v1.Referee.ListLegalMovesRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.ListLegalMovesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListLegalMovesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Play a move. Idempotent per (seat, client_move_id): a repeat returns the first result.
     * </pre>
     */
    public void submitMove(referee.v1.Referee.SubmitMoveRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.SubmitMoveResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getSubmitMoveMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Dry run: would this move be accepted now? Applies nothing.
     * </pre>
     */
    public void validateMove(referee.v1.Referee.ValidateMoveRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.ValidateMoveResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getValidateMoveMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * A stream of the caller's redacted updates: one message per version, each with the
     * events that move caused (as the caller may see them) and the caller's view after it.
     * </pre>
     */
    public void watchGame(referee.v1.Referee.WatchGameRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.WatchGameResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getWatchGameMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The move log as the caller may see it; the full log and the seed once the game is over.
     * One page of entries per call: follow `next_page_token` until it is empty.
     * </pre>
     */
    public void getHistory(referee.v1.Referee.GetHistoryRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.GetHistoryResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetHistoryMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * One seat's game over one bidirectional stream, for bots and real-time frontends: the
     * seat's updates (exactly as WatchGame sends them) and the answers to its moves on one
     * connection, instead of a unary round trip per move. Needs HTTP/2: call it on the gRPC
     * port (the HTTP/JSON port speaks HTTP/1.1, which cannot carry a bidirectional stream).
     * Send a `join` first (anything else ends the call with INVALID_ARGUMENT
     * PLAY_JOIN_FIRST), then `submit` and `list_legal_moves` at any time. A seat token is
     * required. The referee answers every request, in the order sent, with one
     * `move_result`, `legal_moves` or `rejection`; updates keep arriving in version order in
     * between. A move's `move_result` comes after the update of the version it produced, so
     * you already hold the view it led to. A rejected move does not end the call: it is
     * answered in-band with exactly the status code, reason and metadata SubmitMove would
     * give (UNAVAILABLE too, when the store could not be reached: send it again); validation,
     * versioning and idempotency are SubmitMove's. Errors at join (bad token, unknown game,
     * bad `after_version`) end the call with the usual status and ErrorInfo, and a referee
     * shutting down ends it with UNAVAILABLE.
     * The call ends (status OK) once the game is over and you have closed your side.
     * After a drop, call again with `after_version` set to the last version you received and
     * send again the moves you had no answer for, with the same `client_move_id`: a move
     * that was applied is not applied twice, its answer comes back with `duplicate` set.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<referee.v1.Referee.PlayRequest> play(
        io.grpc.stub.StreamObserver<referee.v1.Referee.PlayResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(getPlayMethod(), getCallOptions()), responseObserver);
    }

    /**
     * <pre>
     * Fairness check of a finished game, by anyone (no token): re-deal from the revealed
     * seed and re-run every move of `history` (a GetHistoryResponse, as any seat or spectator
     * received it), comparing each move's events, the outcome and any `views` the caller
     * recorded (e.g. from WatchGame, revealed ones too: View.revealed says which view of the
     * replay each is compared with) with the replay. Reads nothing stored: the answer
     * depends only on the request, so any referee, or `referee verify` offline, gives the
     * same one. A history that does not verify is an answer (`verified` false), not an error.
     * It also checks the hash chain of the move log: every entry's `log_entry` against its
     * version, seat and move, every `head` from the seed commitment, and every view's `head`
     * against the chain at the view's version (so a kept view pins the history before it).
     * </pre>
     */
    public void verifyHistory(referee.v1.Referee.VerifyHistoryRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Referee.VerifyHistoryResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getVerifyHistoryMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * <pre>
   * RefereeService hosts turn-based and simultaneous card games. It is authoritative: every
   * move is checked against the rules before it is stored, and every answer holds only what
   * the calling seat may know.
   * Authentication: every call except CreateGame and VerifyHistory identifies its caller by the seat token
   * returned from CreateGame, sent as gRPC metadata `authorization: Bearer &lt;token&gt;`.
   * A call without a token is a spectator: allowed only for GetView, WatchGame and
   * GetHistory, and only on games created with `allow_spectators`.
   * Errors: every rejection carries a `google.rpc.ErrorInfo` detail (domain
   * "referee.v1") whose `reason` is a stable UPPER_SNAKE_CASE code you can switch on,
   * e.g. CHIP_ALREADY_HELD, VERSION_MISMATCH, GAME_NOT_FOUND. A rejected call changes nothing.
   *   INVALID_ARGUMENT     malformed request or move shape
   *   FAILED_PRECONDITION  move against the rules now (wrong round, game over, ...)
   *   ABORTED              `expected_version` is stale; metadata "current_version" has the new one
   *   NOT_FOUND            unknown game id
   *   UNAUTHENTICATED      missing or invalid token
   *   PERMISSION_DENIED    valid token, but for another game or seat
   * </pre>
   */
  public static final class RefereeServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<RefereeServiceBlockingStub> {
    private RefereeServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RefereeServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RefereeServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * Create a table. Returns the game id, one secret token per seat (hand each to its
     * player only) and the sha256 commitment of the random seed, revealed when the game ends.
     * </pre>
     */
    public referee.v1.Referee.CreateGameResponse createGame(referee.v1.Referee.CreateGameRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateGameMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The caller's current view of the table, with its version.
     * </pre>
     */
    public referee.v1.Referee.GetViewResponse getView(referee.v1.Referee.GetViewRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetViewMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Every move the calling seat may make now. Exactly the moves SubmitMove would accept.
     * </pre>
     */
    public referee.v1.Referee.ListLegalMovesResponse listLegalMoves(referee.v1.Referee.ListLegalMovesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListLegalMovesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Play a move. Idempotent per (seat, client_move_id): a repeat returns the first result.
     * </pre>
     */
    public referee.v1.Referee.SubmitMoveResponse submitMove(referee.v1.Referee.SubmitMoveRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getSubmitMoveMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Dry run: would this move be accepted now? Applies nothing.
     * </pre>
     */
    public referee.v1.Referee.ValidateMoveResponse validateMove(referee.v1.Referee.ValidateMoveRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getValidateMoveMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * A stream of the caller's redacted updates: one message per version, each with the
     * events that move caused (as the caller may see them) and the caller's view after it.
     * </pre>
     */
    public java.util.Iterator<referee.v1.Referee.WatchGameResponse> watchGame(
        referee.v1.Referee.WatchGameRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getWatchGameMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The move log as the caller may see it; the full log and the seed once the game is over.
     * One page of entries per call: follow `next_page_token` until it is empty.
     * </pre>
     */
    public referee.v1.Referee.GetHistoryResponse getHistory(referee.v1.Referee.GetHistoryRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetHistoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Fairness check of a finished game, by anyone (no token): re-deal from the revealed
     * seed and re-run every move of `history` (a GetHistoryResponse, as any seat or spectator
     * received it), comparing each move's events, the outcome and any `views` the caller
     * recorded (e.g. from WatchGame, revealed ones too: View.revealed says which view of the
     * replay each is compared with) with the replay. Reads nothing stored: the answer
     * depends only on the request, so any referee, or `referee verify` offline, gives the
     * same one. A history that does not verify is an answer (`verified` false), not an error.
     * It also checks the hash chain of the move log: every entry's `log_entry` against its
     * version, seat and move, every `head` from the seed commitment, and every view's `head`
     * against the chain at the view's version (so a kept view pins the history before it).
     * </pre>
     */
    public referee.v1.Referee.VerifyHistoryResponse verifyHistory(referee.v1.Referee.VerifyHistoryRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getVerifyHistoryMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * RefereeService hosts turn-based and simultaneous card games. It is authoritative: every
   * move is checked against the rules before it is stored, and every answer holds only what
   * the calling seat may know.
   * Authentication: every call except CreateGame and VerifyHistory identifies its caller by the seat token
   * returned from CreateGame, sent as gRPC metadata `authorization: Bearer &lt;token&gt;`.
   * A call without a token is a spectator: allowed only for GetView, WatchGame and
   * GetHistory, and only on games created with `allow_spectators`.
   * Errors: every rejection carries a `google.rpc.ErrorInfo` detail (domain
   * "referee.v1") whose `reason` is a stable UPPER_SNAKE_CASE code you can switch on,
   * e.g. CHIP_ALREADY_HELD, VERSION_MISMATCH, GAME_NOT_FOUND. A rejected call changes nothing.
   *   INVALID_ARGUMENT     malformed request or move shape
   *   FAILED_PRECONDITION  move against the rules now (wrong round, game over, ...)
   *   ABORTED              `expected_version` is stale; metadata "current_version" has the new one
   *   NOT_FOUND            unknown game id
   *   UNAUTHENTICATED      missing or invalid token
   *   PERMISSION_DENIED    valid token, but for another game or seat
   * </pre>
   */
  public static final class RefereeServiceFutureStub extends io.grpc.stub.AbstractFutureStub<RefereeServiceFutureStub> {
    private RefereeServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RefereeServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RefereeServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * Create a table. Returns the game id, one secret token per seat (hand each to its
     * player only) and the sha256 commitment of the random seed, revealed when the game ends.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Referee.CreateGameResponse> createGame(
        referee.v1.Referee.CreateGameRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateGameMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The caller's current view of the table, with its version.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Referee.GetViewResponse> getView(
        referee.v1.Referee.GetViewRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetViewMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Every move the calling seat may make now. Exactly the moves SubmitMove would accept.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Referee.ListLegalMovesResponse> listLegalMoves(
        referee.v1.Referee.ListLegalMovesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListLegalMovesMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Play a move. Idempotent per (seat, client_move_id): a repeat returns the first result.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Referee.SubmitMoveResponse> submitMove(
        referee.v1.Referee.SubmitMoveRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getSubmitMoveMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Dry run: would this move be accepted now? Applies nothing.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Referee.ValidateMoveResponse> validateMove(
        referee.v1.Referee.ValidateMoveRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getValidateMoveMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The move log as the caller may see it; the full log and the seed once the game is over.
     * One page of entries per call: follow `next_page_token` until it is empty.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Referee.GetHistoryResponse> getHistory(
        referee.v1.Referee.GetHistoryRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetHistoryMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Fairness check of a finished game, by anyone (no token): re-deal from the revealed
     * seed and re-run every move of `history` (a GetHistoryResponse, as any seat or spectator
     * received it), comparing each move's events, the outcome and any `views` the caller
     * recorded (e.g. from WatchGame, revealed ones too: View.revealed says which view of the
     * replay each is compared with) with the replay. Reads nothing stored: the answer
     * depends only on the request, so any referee, or `referee verify` offline, gives the
     * same one. A history that does not verify is an answer (`verified` false), not an error.
     * It also checks the hash chain of the move log: every entry's `log_entry` against its
     * version, seat and move, every `head` from the seed commitment, and every view's `head`
     * against the chain at the view's version (so a kept view pins the history before it).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Referee.VerifyHistoryResponse> verifyHistory(
        referee.v1.Referee.VerifyHistoryRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getVerifyHistoryMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_CREATE_GAME = 0;
  private static final int METHODID_GET_VIEW = 1;
  private static final int METHODID_LIST_LEGAL_MOVES = 2;
  private static final int METHODID_SUBMIT_MOVE = 3;
  private static final int METHODID_VALIDATE_MOVE = 4;
  private static final int METHODID_WATCH_GAME = 5;
  private static final int METHODID_GET_HISTORY = 6;
  private static final int METHODID_VERIFY_HISTORY = 7;
  private static final int METHODID_PLAY = 8;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final RefereeServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(RefereeServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_CREATE_GAME:
          serviceImpl.createGame((referee.v1.Referee.CreateGameRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Referee.CreateGameResponse>) responseObserver);
          break;
        case METHODID_GET_VIEW:
          serviceImpl.getView((referee.v1.Referee.GetViewRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Referee.GetViewResponse>) responseObserver);
          break;
        case METHODID_LIST_LEGAL_MOVES:
          serviceImpl.listLegalMoves((referee.v1.Referee.ListLegalMovesRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Referee.ListLegalMovesResponse>) responseObserver);
          break;
        case METHODID_SUBMIT_MOVE:
          serviceImpl.submitMove((referee.v1.Referee.SubmitMoveRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Referee.SubmitMoveResponse>) responseObserver);
          break;
        case METHODID_VALIDATE_MOVE:
          serviceImpl.validateMove((referee.v1.Referee.ValidateMoveRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Referee.ValidateMoveResponse>) responseObserver);
          break;
        case METHODID_WATCH_GAME:
          serviceImpl.watchGame((referee.v1.Referee.WatchGameRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Referee.WatchGameResponse>) responseObserver);
          break;
        case METHODID_GET_HISTORY:
          serviceImpl.getHistory((referee.v1.Referee.GetHistoryRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Referee.GetHistoryResponse>) responseObserver);
          break;
        case METHODID_VERIFY_HISTORY:
          serviceImpl.verifyHistory((referee.v1.Referee.VerifyHistoryRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Referee.VerifyHistoryResponse>) responseObserver);
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
        case METHODID_PLAY:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.play(
              (io.grpc.stub.StreamObserver<referee.v1.Referee.PlayResponse>) responseObserver);
        default:
          throw new AssertionError();
      }
    }
  }

  private static abstract class RefereeServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    RefereeServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return referee.v1.Referee.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("RefereeService");
    }
  }

  private static final class RefereeServiceFileDescriptorSupplier
      extends RefereeServiceBaseDescriptorSupplier {
    RefereeServiceFileDescriptorSupplier() {}
  }

  private static final class RefereeServiceMethodDescriptorSupplier
      extends RefereeServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    RefereeServiceMethodDescriptorSupplier(String methodName) {
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
      synchronized (RefereeServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new RefereeServiceFileDescriptorSupplier())
              .addMethod(getCreateGameMethod())
              .addMethod(getGetViewMethod())
              .addMethod(getListLegalMovesMethod())
              .addMethod(getSubmitMoveMethod())
              .addMethod(getValidateMoveMethod())
              .addMethod(getWatchGameMethod())
              .addMethod(getGetHistoryMethod())
              .addMethod(getPlayMethod())
              .addMethod(getVerifyHistoryMethod())
              .build();
        }
      }
    }
    return result;
  }
}
