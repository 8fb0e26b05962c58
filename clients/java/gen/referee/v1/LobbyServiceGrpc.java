package referee.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * LobbyService finds, fills and runs tables: open seats claimed under a display name, a
 * listing of public tables, and the table admin's controls. Tables are created with
 * RefereeService.CreateGame (`open_seats`, `listed`), which returns the table admin token
 * and a join code; the game itself is then played through RefereeService.
 * Tokens: a seat token (from CreateGame or JoinGame) or the table admin token, sent as
 * `authorization: Bearer &lt;token&gt;`. A token names its game, its seat (or the admin) and a
 * generation: ReissueSeatToken raises the seat's generation, and every token of an earlier
 * generation is refused from then on (UNAUTHENTICATED TOKEN_REVOKED).
 * </pre>
 */
@javax.annotation.Generated(
    value = "by gRPC proto compiler",
    comments = "Source: referee/v1/lobby.proto")
@io.grpc.stub.annotations.GrpcGenerated
public final class LobbyServiceGrpc {

  private LobbyServiceGrpc() {}

  public static final String SERVICE_NAME = "referee.v1.LobbyService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<referee.v1.Lobby.JoinGameRequest,
      referee.v1.Lobby.JoinGameResponse> getJoinGameMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "JoinGame",
      requestType = referee.v1.Lobby.JoinGameRequest.class,
      responseType = referee.v1.Lobby.JoinGameResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Lobby.JoinGameRequest,
      referee.v1.Lobby.JoinGameResponse> getJoinGameMethod() {
    io.grpc.MethodDescriptor<referee.v1.Lobby.JoinGameRequest, referee.v1.Lobby.JoinGameResponse> getJoinGameMethod;
    if ((getJoinGameMethod = LobbyServiceGrpc.getJoinGameMethod) == null) {
      synchronized (LobbyServiceGrpc.class) {
        if ((getJoinGameMethod = LobbyServiceGrpc.getJoinGameMethod) == null) {
          LobbyServiceGrpc.getJoinGameMethod = getJoinGameMethod =
              io.grpc.MethodDescriptor.<referee.v1.Lobby.JoinGameRequest, referee.v1.Lobby.JoinGameResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "JoinGame"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.JoinGameRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.JoinGameResponse.getDefaultInstance()))
              .setSchemaDescriptor(new LobbyServiceMethodDescriptorSupplier("JoinGame"))
              .build();
        }
      }
    }
    return getJoinGameMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Lobby.LeaveGameRequest,
      referee.v1.Lobby.LeaveGameResponse> getLeaveGameMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "LeaveGame",
      requestType = referee.v1.Lobby.LeaveGameRequest.class,
      responseType = referee.v1.Lobby.LeaveGameResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Lobby.LeaveGameRequest,
      referee.v1.Lobby.LeaveGameResponse> getLeaveGameMethod() {
    io.grpc.MethodDescriptor<referee.v1.Lobby.LeaveGameRequest, referee.v1.Lobby.LeaveGameResponse> getLeaveGameMethod;
    if ((getLeaveGameMethod = LobbyServiceGrpc.getLeaveGameMethod) == null) {
      synchronized (LobbyServiceGrpc.class) {
        if ((getLeaveGameMethod = LobbyServiceGrpc.getLeaveGameMethod) == null) {
          LobbyServiceGrpc.getLeaveGameMethod = getLeaveGameMethod =
              io.grpc.MethodDescriptor.<referee.v1.Lobby.LeaveGameRequest, referee.v1.Lobby.LeaveGameResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "LeaveGame"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.LeaveGameRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.LeaveGameResponse.getDefaultInstance()))
              .setSchemaDescriptor(new LobbyServiceMethodDescriptorSupplier("LeaveGame"))
              .build();
        }
      }
    }
    return getLeaveGameMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Lobby.StartGameRequest,
      referee.v1.Lobby.StartGameResponse> getStartGameMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "StartGame",
      requestType = referee.v1.Lobby.StartGameRequest.class,
      responseType = referee.v1.Lobby.StartGameResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Lobby.StartGameRequest,
      referee.v1.Lobby.StartGameResponse> getStartGameMethod() {
    io.grpc.MethodDescriptor<referee.v1.Lobby.StartGameRequest, referee.v1.Lobby.StartGameResponse> getStartGameMethod;
    if ((getStartGameMethod = LobbyServiceGrpc.getStartGameMethod) == null) {
      synchronized (LobbyServiceGrpc.class) {
        if ((getStartGameMethod = LobbyServiceGrpc.getStartGameMethod) == null) {
          LobbyServiceGrpc.getStartGameMethod = getStartGameMethod =
              io.grpc.MethodDescriptor.<referee.v1.Lobby.StartGameRequest, referee.v1.Lobby.StartGameResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "StartGame"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.StartGameRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.StartGameResponse.getDefaultInstance()))
              .setSchemaDescriptor(new LobbyServiceMethodDescriptorSupplier("StartGame"))
              .build();
        }
      }
    }
    return getStartGameMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Lobby.ListGamesRequest,
      referee.v1.Lobby.ListGamesResponse> getListGamesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListGames",
      requestType = referee.v1.Lobby.ListGamesRequest.class,
      responseType = referee.v1.Lobby.ListGamesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Lobby.ListGamesRequest,
      referee.v1.Lobby.ListGamesResponse> getListGamesMethod() {
    io.grpc.MethodDescriptor<referee.v1.Lobby.ListGamesRequest, referee.v1.Lobby.ListGamesResponse> getListGamesMethod;
    if ((getListGamesMethod = LobbyServiceGrpc.getListGamesMethod) == null) {
      synchronized (LobbyServiceGrpc.class) {
        if ((getListGamesMethod = LobbyServiceGrpc.getListGamesMethod) == null) {
          LobbyServiceGrpc.getListGamesMethod = getListGamesMethod =
              io.grpc.MethodDescriptor.<referee.v1.Lobby.ListGamesRequest, referee.v1.Lobby.ListGamesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListGames"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.ListGamesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.ListGamesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new LobbyServiceMethodDescriptorSupplier("ListGames"))
              .build();
        }
      }
    }
    return getListGamesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Lobby.ReissueSeatTokenRequest,
      referee.v1.Lobby.ReissueSeatTokenResponse> getReissueSeatTokenMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReissueSeatToken",
      requestType = referee.v1.Lobby.ReissueSeatTokenRequest.class,
      responseType = referee.v1.Lobby.ReissueSeatTokenResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Lobby.ReissueSeatTokenRequest,
      referee.v1.Lobby.ReissueSeatTokenResponse> getReissueSeatTokenMethod() {
    io.grpc.MethodDescriptor<referee.v1.Lobby.ReissueSeatTokenRequest, referee.v1.Lobby.ReissueSeatTokenResponse> getReissueSeatTokenMethod;
    if ((getReissueSeatTokenMethod = LobbyServiceGrpc.getReissueSeatTokenMethod) == null) {
      synchronized (LobbyServiceGrpc.class) {
        if ((getReissueSeatTokenMethod = LobbyServiceGrpc.getReissueSeatTokenMethod) == null) {
          LobbyServiceGrpc.getReissueSeatTokenMethod = getReissueSeatTokenMethod =
              io.grpc.MethodDescriptor.<referee.v1.Lobby.ReissueSeatTokenRequest, referee.v1.Lobby.ReissueSeatTokenResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReissueSeatToken"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.ReissueSeatTokenRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.ReissueSeatTokenResponse.getDefaultInstance()))
              .setSchemaDescriptor(new LobbyServiceMethodDescriptorSupplier("ReissueSeatToken"))
              .build();
        }
      }
    }
    return getReissueSeatTokenMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Lobby.ForfeitSeatRequest,
      referee.v1.Lobby.ForfeitSeatResponse> getForfeitSeatMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ForfeitSeat",
      requestType = referee.v1.Lobby.ForfeitSeatRequest.class,
      responseType = referee.v1.Lobby.ForfeitSeatResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Lobby.ForfeitSeatRequest,
      referee.v1.Lobby.ForfeitSeatResponse> getForfeitSeatMethod() {
    io.grpc.MethodDescriptor<referee.v1.Lobby.ForfeitSeatRequest, referee.v1.Lobby.ForfeitSeatResponse> getForfeitSeatMethod;
    if ((getForfeitSeatMethod = LobbyServiceGrpc.getForfeitSeatMethod) == null) {
      synchronized (LobbyServiceGrpc.class) {
        if ((getForfeitSeatMethod = LobbyServiceGrpc.getForfeitSeatMethod) == null) {
          LobbyServiceGrpc.getForfeitSeatMethod = getForfeitSeatMethod =
              io.grpc.MethodDescriptor.<referee.v1.Lobby.ForfeitSeatRequest, referee.v1.Lobby.ForfeitSeatResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ForfeitSeat"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.ForfeitSeatRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.ForfeitSeatResponse.getDefaultInstance()))
              .setSchemaDescriptor(new LobbyServiceMethodDescriptorSupplier("ForfeitSeat"))
              .build();
        }
      }
    }
    return getForfeitSeatMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Lobby.ReplaceSeatByBotRequest,
      referee.v1.Lobby.ReplaceSeatByBotResponse> getReplaceSeatByBotMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReplaceSeatByBot",
      requestType = referee.v1.Lobby.ReplaceSeatByBotRequest.class,
      responseType = referee.v1.Lobby.ReplaceSeatByBotResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Lobby.ReplaceSeatByBotRequest,
      referee.v1.Lobby.ReplaceSeatByBotResponse> getReplaceSeatByBotMethod() {
    io.grpc.MethodDescriptor<referee.v1.Lobby.ReplaceSeatByBotRequest, referee.v1.Lobby.ReplaceSeatByBotResponse> getReplaceSeatByBotMethod;
    if ((getReplaceSeatByBotMethod = LobbyServiceGrpc.getReplaceSeatByBotMethod) == null) {
      synchronized (LobbyServiceGrpc.class) {
        if ((getReplaceSeatByBotMethod = LobbyServiceGrpc.getReplaceSeatByBotMethod) == null) {
          LobbyServiceGrpc.getReplaceSeatByBotMethod = getReplaceSeatByBotMethod =
              io.grpc.MethodDescriptor.<referee.v1.Lobby.ReplaceSeatByBotRequest, referee.v1.Lobby.ReplaceSeatByBotResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReplaceSeatByBot"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.ReplaceSeatByBotRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.ReplaceSeatByBotResponse.getDefaultInstance()))
              .setSchemaDescriptor(new LobbyServiceMethodDescriptorSupplier("ReplaceSeatByBot"))
              .build();
        }
      }
    }
    return getReplaceSeatByBotMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Lobby.AbortGameRequest,
      referee.v1.Lobby.AbortGameResponse> getAbortGameMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "AbortGame",
      requestType = referee.v1.Lobby.AbortGameRequest.class,
      responseType = referee.v1.Lobby.AbortGameResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Lobby.AbortGameRequest,
      referee.v1.Lobby.AbortGameResponse> getAbortGameMethod() {
    io.grpc.MethodDescriptor<referee.v1.Lobby.AbortGameRequest, referee.v1.Lobby.AbortGameResponse> getAbortGameMethod;
    if ((getAbortGameMethod = LobbyServiceGrpc.getAbortGameMethod) == null) {
      synchronized (LobbyServiceGrpc.class) {
        if ((getAbortGameMethod = LobbyServiceGrpc.getAbortGameMethod) == null) {
          LobbyServiceGrpc.getAbortGameMethod = getAbortGameMethod =
              io.grpc.MethodDescriptor.<referee.v1.Lobby.AbortGameRequest, referee.v1.Lobby.AbortGameResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "AbortGame"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.AbortGameRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Lobby.AbortGameResponse.getDefaultInstance()))
              .setSchemaDescriptor(new LobbyServiceMethodDescriptorSupplier("AbortGame"))
              .build();
        }
      }
    }
    return getAbortGameMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static LobbyServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<LobbyServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<LobbyServiceStub>() {
        @java.lang.Override
        public LobbyServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new LobbyServiceStub(channel, callOptions);
        }
      };
    return LobbyServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static LobbyServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<LobbyServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<LobbyServiceBlockingStub>() {
        @java.lang.Override
        public LobbyServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new LobbyServiceBlockingStub(channel, callOptions);
        }
      };
    return LobbyServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static LobbyServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<LobbyServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<LobbyServiceFutureStub>() {
        @java.lang.Override
        public LobbyServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new LobbyServiceFutureStub(channel, callOptions);
        }
      };
    return LobbyServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * LobbyService finds, fills and runs tables: open seats claimed under a display name, a
   * listing of public tables, and the table admin's controls. Tables are created with
   * RefereeService.CreateGame (`open_seats`, `listed`), which returns the table admin token
   * and a join code; the game itself is then played through RefereeService.
   * Tokens: a seat token (from CreateGame or JoinGame) or the table admin token, sent as
   * `authorization: Bearer &lt;token&gt;`. A token names its game, its seat (or the admin) and a
   * generation: ReissueSeatToken raises the seat's generation, and every token of an earlier
   * generation is refused from then on (UNAUTHENTICATED TOKEN_REVOKED).
   * </pre>
   */
  public static abstract class LobbyServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * Claim a free seat (no token needed): by `join_code`, or by `game_id` for a listed
     * table. Returns the seat's token, once. When the last open seat is taken the game
     * starts. Refusals: NOT_FOUND JOIN_CODE_INVALID (unknown, expired or spent code: the
     * table started or is full), FAILED_PRECONDITION TABLE_FULL / GAME_ALREADY_STARTED,
     * PERMISSION_DENIED TABLE_NOT_LISTED (by game id, for an unlisted table),
     * INVALID_ARGUMENT NAME_INVALID (1 to 64 printable characters) / PLAYER_ID_INVALID (at
     * most 128 printable characters), UNAUTHENTICATED OPERATOR_KEY_REQUIRED (a player_id at a
     * rated table without an operator key). Wrong join codes from one address are limited per
     * minute (RESOURCE_EXHAUSTED JOIN_CODE_ATTEMPTS_EXCEEDED). Of concurrent joins for the
     * last seat exactly one wins.
     * </pre>
     */
    public void joinGame(referee.v1.Lobby.JoinGameRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.JoinGameResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getJoinGameMethod(), responseObserver);
    }

    /**
     * <pre>
     * Give up your seat before the game starts (with its seat token): the seat is open
     * again and the token is refused from then on. FAILED_PRECONDITION
     * GAME_ALREADY_STARTED once the game runs (forfeit instead).
     * </pre>
     */
    public void leaveGame(referee.v1.Lobby.LeaveGameRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.LeaveGameResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getLeaveGameMethod(), responseObserver);
    }

    /**
     * <pre>
     * The table admin starts the game now, with the referee's bots in every open seat.
     * </pre>
     */
    public void startGame(referee.v1.Lobby.StartGameRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.StartGameResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getStartGameMethod(), responseObserver);
    }

    /**
     * <pre>
     * Listed tables, newest first, paged; cheap enough to poll every few seconds.
     * </pre>
     */
    public void listGames(referee.v1.Lobby.ListGamesRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.ListGamesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListGamesMethod(), responseObserver);
    }

    /**
     * <pre>
     * The table admin's new token for a seat (its player lost it); the seat's earlier token
     * is refused from then on. The seat keeps its name and its place in the game.
     * </pre>
     */
    public void reissueSeatToken(referee.v1.Lobby.ReissueSeatTokenRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.ReissueSeatTokenResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReissueSeatTokenMethod(), responseObserver);
    }

    /**
     * <pre>
     * Forfeit a seat: with the seat's own token (resign) or the admin token. What a forfeit
     * means is the game's (docs/hosting.md): in Gang of Four and Pinched! the seat is placed
     * last (after every seat that did not forfeit, never a winner) and the clock plays its
     * moves at once from then on, so the others finish their game. The Gang is cooperative:
     * nobody loses alone, so a forfeit is refused there (FAILED_PRECONDITION
     * FORFEIT_NOT_IN_GAME); hand the seat to a bot or abort the game instead.
     * </pre>
     */
    public void forfeitSeat(referee.v1.Lobby.ForfeitSeatRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.ForfeitSeatResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getForfeitSeatMethod(), responseObserver);
    }

    /**
     * <pre>
     * The table admin hands a seat to the referee's bot, which plays it from then on.
     * </pre>
     */
    public void replaceSeatByBot(referee.v1.Lobby.ReplaceSeatByBotRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.ReplaceSeatByBotResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReplaceSeatByBotMethod(), responseObserver);
    }

    /**
     * <pre>
     * The table admin ends the game without an outcome (TABLE_STATUS_ABORTED).
     * </pre>
     */
    public void abortGame(referee.v1.Lobby.AbortGameRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.AbortGameResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getAbortGameMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getJoinGameMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Lobby.JoinGameRequest,
                referee.v1.Lobby.JoinGameResponse>(
                  this, METHODID_JOIN_GAME)))
          .addMethod(
            getLeaveGameMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Lobby.LeaveGameRequest,
                referee.v1.Lobby.LeaveGameResponse>(
                  this, METHODID_LEAVE_GAME)))
          .addMethod(
            getStartGameMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Lobby.StartGameRequest,
                referee.v1.Lobby.StartGameResponse>(
                  this, METHODID_START_GAME)))
          .addMethod(
            getListGamesMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Lobby.ListGamesRequest,
                referee.v1.Lobby.ListGamesResponse>(
                  this, METHODID_LIST_GAMES)))
          .addMethod(
            getReissueSeatTokenMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Lobby.ReissueSeatTokenRequest,
                referee.v1.Lobby.ReissueSeatTokenResponse>(
                  this, METHODID_REISSUE_SEAT_TOKEN)))
          .addMethod(
            getForfeitSeatMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Lobby.ForfeitSeatRequest,
                referee.v1.Lobby.ForfeitSeatResponse>(
                  this, METHODID_FORFEIT_SEAT)))
          .addMethod(
            getReplaceSeatByBotMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Lobby.ReplaceSeatByBotRequest,
                referee.v1.Lobby.ReplaceSeatByBotResponse>(
                  this, METHODID_REPLACE_SEAT_BY_BOT)))
          .addMethod(
            getAbortGameMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Lobby.AbortGameRequest,
                referee.v1.Lobby.AbortGameResponse>(
                  this, METHODID_ABORT_GAME)))
          .build();
    }
  }

  /**
   * <pre>
   * LobbyService finds, fills and runs tables: open seats claimed under a display name, a
   * listing of public tables, and the table admin's controls. Tables are created with
   * RefereeService.CreateGame (`open_seats`, `listed`), which returns the table admin token
   * and a join code; the game itself is then played through RefereeService.
   * Tokens: a seat token (from CreateGame or JoinGame) or the table admin token, sent as
   * `authorization: Bearer &lt;token&gt;`. A token names its game, its seat (or the admin) and a
   * generation: ReissueSeatToken raises the seat's generation, and every token of an earlier
   * generation is refused from then on (UNAUTHENTICATED TOKEN_REVOKED).
   * </pre>
   */
  public static final class LobbyServiceStub extends io.grpc.stub.AbstractAsyncStub<LobbyServiceStub> {
    private LobbyServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected LobbyServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new LobbyServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * Claim a free seat (no token needed): by `join_code`, or by `game_id` for a listed
     * table. Returns the seat's token, once. When the last open seat is taken the game
     * starts. Refusals: NOT_FOUND JOIN_CODE_INVALID (unknown, expired or spent code: the
     * table started or is full), FAILED_PRECONDITION TABLE_FULL / GAME_ALREADY_STARTED,
     * PERMISSION_DENIED TABLE_NOT_LISTED (by game id, for an unlisted table),
     * INVALID_ARGUMENT NAME_INVALID (1 to 64 printable characters) / PLAYER_ID_INVALID (at
     * most 128 printable characters), UNAUTHENTICATED OPERATOR_KEY_REQUIRED (a player_id at a
     * rated table without an operator key). Wrong join codes from one address are limited per
     * minute (RESOURCE_EXHAUSTED JOIN_CODE_ATTEMPTS_EXCEEDED). Of concurrent joins for the
     * last seat exactly one wins.
     * </pre>
     */
    public void joinGame(referee.v1.Lobby.JoinGameRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.JoinGameResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getJoinGameMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Give up your seat before the game starts (with its seat token): the seat is open
     * again and the token is refused from then on. FAILED_PRECONDITION
     * GAME_ALREADY_STARTED once the game runs (forfeit instead).
     * </pre>
     */
    public void leaveGame(referee.v1.Lobby.LeaveGameRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.LeaveGameResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getLeaveGameMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The table admin starts the game now, with the referee's bots in every open seat.
     * </pre>
     */
    public void startGame(referee.v1.Lobby.StartGameRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.StartGameResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getStartGameMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Listed tables, newest first, paged; cheap enough to poll every few seconds.
     * </pre>
     */
    public void listGames(referee.v1.Lobby.ListGamesRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.ListGamesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListGamesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The table admin's new token for a seat (its player lost it); the seat's earlier token
     * is refused from then on. The seat keeps its name and its place in the game.
     * </pre>
     */
    public void reissueSeatToken(referee.v1.Lobby.ReissueSeatTokenRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.ReissueSeatTokenResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReissueSeatTokenMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Forfeit a seat: with the seat's own token (resign) or the admin token. What a forfeit
     * means is the game's (docs/hosting.md): in Gang of Four and Pinched! the seat is placed
     * last (after every seat that did not forfeit, never a winner) and the clock plays its
     * moves at once from then on, so the others finish their game. The Gang is cooperative:
     * nobody loses alone, so a forfeit is refused there (FAILED_PRECONDITION
     * FORFEIT_NOT_IN_GAME); hand the seat to a bot or abort the game instead.
     * </pre>
     */
    public void forfeitSeat(referee.v1.Lobby.ForfeitSeatRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.ForfeitSeatResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getForfeitSeatMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The table admin hands a seat to the referee's bot, which plays it from then on.
     * </pre>
     */
    public void replaceSeatByBot(referee.v1.Lobby.ReplaceSeatByBotRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.ReplaceSeatByBotResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReplaceSeatByBotMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The table admin ends the game without an outcome (TABLE_STATUS_ABORTED).
     * </pre>
     */
    public void abortGame(referee.v1.Lobby.AbortGameRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Lobby.AbortGameResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getAbortGameMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * <pre>
   * LobbyService finds, fills and runs tables: open seats claimed under a display name, a
   * listing of public tables, and the table admin's controls. Tables are created with
   * RefereeService.CreateGame (`open_seats`, `listed`), which returns the table admin token
   * and a join code; the game itself is then played through RefereeService.
   * Tokens: a seat token (from CreateGame or JoinGame) or the table admin token, sent as
   * `authorization: Bearer &lt;token&gt;`. A token names its game, its seat (or the admin) and a
   * generation: ReissueSeatToken raises the seat's generation, and every token of an earlier
   * generation is refused from then on (UNAUTHENTICATED TOKEN_REVOKED).
   * </pre>
   */
  public static final class LobbyServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<LobbyServiceBlockingStub> {
    private LobbyServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected LobbyServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new LobbyServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * Claim a free seat (no token needed): by `join_code`, or by `game_id` for a listed
     * table. Returns the seat's token, once. When the last open seat is taken the game
     * starts. Refusals: NOT_FOUND JOIN_CODE_INVALID (unknown, expired or spent code: the
     * table started or is full), FAILED_PRECONDITION TABLE_FULL / GAME_ALREADY_STARTED,
     * PERMISSION_DENIED TABLE_NOT_LISTED (by game id, for an unlisted table),
     * INVALID_ARGUMENT NAME_INVALID (1 to 64 printable characters) / PLAYER_ID_INVALID (at
     * most 128 printable characters), UNAUTHENTICATED OPERATOR_KEY_REQUIRED (a player_id at a
     * rated table without an operator key). Wrong join codes from one address are limited per
     * minute (RESOURCE_EXHAUSTED JOIN_CODE_ATTEMPTS_EXCEEDED). Of concurrent joins for the
     * last seat exactly one wins.
     * </pre>
     */
    public referee.v1.Lobby.JoinGameResponse joinGame(referee.v1.Lobby.JoinGameRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getJoinGameMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Give up your seat before the game starts (with its seat token): the seat is open
     * again and the token is refused from then on. FAILED_PRECONDITION
     * GAME_ALREADY_STARTED once the game runs (forfeit instead).
     * </pre>
     */
    public referee.v1.Lobby.LeaveGameResponse leaveGame(referee.v1.Lobby.LeaveGameRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getLeaveGameMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The table admin starts the game now, with the referee's bots in every open seat.
     * </pre>
     */
    public referee.v1.Lobby.StartGameResponse startGame(referee.v1.Lobby.StartGameRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getStartGameMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Listed tables, newest first, paged; cheap enough to poll every few seconds.
     * </pre>
     */
    public referee.v1.Lobby.ListGamesResponse listGames(referee.v1.Lobby.ListGamesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListGamesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The table admin's new token for a seat (its player lost it); the seat's earlier token
     * is refused from then on. The seat keeps its name and its place in the game.
     * </pre>
     */
    public referee.v1.Lobby.ReissueSeatTokenResponse reissueSeatToken(referee.v1.Lobby.ReissueSeatTokenRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReissueSeatTokenMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Forfeit a seat: with the seat's own token (resign) or the admin token. What a forfeit
     * means is the game's (docs/hosting.md): in Gang of Four and Pinched! the seat is placed
     * last (after every seat that did not forfeit, never a winner) and the clock plays its
     * moves at once from then on, so the others finish their game. The Gang is cooperative:
     * nobody loses alone, so a forfeit is refused there (FAILED_PRECONDITION
     * FORFEIT_NOT_IN_GAME); hand the seat to a bot or abort the game instead.
     * </pre>
     */
    public referee.v1.Lobby.ForfeitSeatResponse forfeitSeat(referee.v1.Lobby.ForfeitSeatRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getForfeitSeatMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The table admin hands a seat to the referee's bot, which plays it from then on.
     * </pre>
     */
    public referee.v1.Lobby.ReplaceSeatByBotResponse replaceSeatByBot(referee.v1.Lobby.ReplaceSeatByBotRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReplaceSeatByBotMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The table admin ends the game without an outcome (TABLE_STATUS_ABORTED).
     * </pre>
     */
    public referee.v1.Lobby.AbortGameResponse abortGame(referee.v1.Lobby.AbortGameRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getAbortGameMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * LobbyService finds, fills and runs tables: open seats claimed under a display name, a
   * listing of public tables, and the table admin's controls. Tables are created with
   * RefereeService.CreateGame (`open_seats`, `listed`), which returns the table admin token
   * and a join code; the game itself is then played through RefereeService.
   * Tokens: a seat token (from CreateGame or JoinGame) or the table admin token, sent as
   * `authorization: Bearer &lt;token&gt;`. A token names its game, its seat (or the admin) and a
   * generation: ReissueSeatToken raises the seat's generation, and every token of an earlier
   * generation is refused from then on (UNAUTHENTICATED TOKEN_REVOKED).
   * </pre>
   */
  public static final class LobbyServiceFutureStub extends io.grpc.stub.AbstractFutureStub<LobbyServiceFutureStub> {
    private LobbyServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected LobbyServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new LobbyServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * Claim a free seat (no token needed): by `join_code`, or by `game_id` for a listed
     * table. Returns the seat's token, once. When the last open seat is taken the game
     * starts. Refusals: NOT_FOUND JOIN_CODE_INVALID (unknown, expired or spent code: the
     * table started or is full), FAILED_PRECONDITION TABLE_FULL / GAME_ALREADY_STARTED,
     * PERMISSION_DENIED TABLE_NOT_LISTED (by game id, for an unlisted table),
     * INVALID_ARGUMENT NAME_INVALID (1 to 64 printable characters) / PLAYER_ID_INVALID (at
     * most 128 printable characters), UNAUTHENTICATED OPERATOR_KEY_REQUIRED (a player_id at a
     * rated table without an operator key). Wrong join codes from one address are limited per
     * minute (RESOURCE_EXHAUSTED JOIN_CODE_ATTEMPTS_EXCEEDED). Of concurrent joins for the
     * last seat exactly one wins.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Lobby.JoinGameResponse> joinGame(
        referee.v1.Lobby.JoinGameRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getJoinGameMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Give up your seat before the game starts (with its seat token): the seat is open
     * again and the token is refused from then on. FAILED_PRECONDITION
     * GAME_ALREADY_STARTED once the game runs (forfeit instead).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Lobby.LeaveGameResponse> leaveGame(
        referee.v1.Lobby.LeaveGameRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getLeaveGameMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The table admin starts the game now, with the referee's bots in every open seat.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Lobby.StartGameResponse> startGame(
        referee.v1.Lobby.StartGameRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getStartGameMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Listed tables, newest first, paged; cheap enough to poll every few seconds.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Lobby.ListGamesResponse> listGames(
        referee.v1.Lobby.ListGamesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListGamesMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The table admin's new token for a seat (its player lost it); the seat's earlier token
     * is refused from then on. The seat keeps its name and its place in the game.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Lobby.ReissueSeatTokenResponse> reissueSeatToken(
        referee.v1.Lobby.ReissueSeatTokenRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReissueSeatTokenMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Forfeit a seat: with the seat's own token (resign) or the admin token. What a forfeit
     * means is the game's (docs/hosting.md): in Gang of Four and Pinched! the seat is placed
     * last (after every seat that did not forfeit, never a winner) and the clock plays its
     * moves at once from then on, so the others finish their game. The Gang is cooperative:
     * nobody loses alone, so a forfeit is refused there (FAILED_PRECONDITION
     * FORFEIT_NOT_IN_GAME); hand the seat to a bot or abort the game instead.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Lobby.ForfeitSeatResponse> forfeitSeat(
        referee.v1.Lobby.ForfeitSeatRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getForfeitSeatMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The table admin hands a seat to the referee's bot, which plays it from then on.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Lobby.ReplaceSeatByBotResponse> replaceSeatByBot(
        referee.v1.Lobby.ReplaceSeatByBotRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReplaceSeatByBotMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The table admin ends the game without an outcome (TABLE_STATUS_ABORTED).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Lobby.AbortGameResponse> abortGame(
        referee.v1.Lobby.AbortGameRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getAbortGameMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_JOIN_GAME = 0;
  private static final int METHODID_LEAVE_GAME = 1;
  private static final int METHODID_START_GAME = 2;
  private static final int METHODID_LIST_GAMES = 3;
  private static final int METHODID_REISSUE_SEAT_TOKEN = 4;
  private static final int METHODID_FORFEIT_SEAT = 5;
  private static final int METHODID_REPLACE_SEAT_BY_BOT = 6;
  private static final int METHODID_ABORT_GAME = 7;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final LobbyServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(LobbyServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_JOIN_GAME:
          serviceImpl.joinGame((referee.v1.Lobby.JoinGameRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Lobby.JoinGameResponse>) responseObserver);
          break;
        case METHODID_LEAVE_GAME:
          serviceImpl.leaveGame((referee.v1.Lobby.LeaveGameRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Lobby.LeaveGameResponse>) responseObserver);
          break;
        case METHODID_START_GAME:
          serviceImpl.startGame((referee.v1.Lobby.StartGameRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Lobby.StartGameResponse>) responseObserver);
          break;
        case METHODID_LIST_GAMES:
          serviceImpl.listGames((referee.v1.Lobby.ListGamesRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Lobby.ListGamesResponse>) responseObserver);
          break;
        case METHODID_REISSUE_SEAT_TOKEN:
          serviceImpl.reissueSeatToken((referee.v1.Lobby.ReissueSeatTokenRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Lobby.ReissueSeatTokenResponse>) responseObserver);
          break;
        case METHODID_FORFEIT_SEAT:
          serviceImpl.forfeitSeat((referee.v1.Lobby.ForfeitSeatRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Lobby.ForfeitSeatResponse>) responseObserver);
          break;
        case METHODID_REPLACE_SEAT_BY_BOT:
          serviceImpl.replaceSeatByBot((referee.v1.Lobby.ReplaceSeatByBotRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Lobby.ReplaceSeatByBotResponse>) responseObserver);
          break;
        case METHODID_ABORT_GAME:
          serviceImpl.abortGame((referee.v1.Lobby.AbortGameRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Lobby.AbortGameResponse>) responseObserver);
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

  private static abstract class LobbyServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    LobbyServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return referee.v1.Lobby.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("LobbyService");
    }
  }

  private static final class LobbyServiceFileDescriptorSupplier
      extends LobbyServiceBaseDescriptorSupplier {
    LobbyServiceFileDescriptorSupplier() {}
  }

  private static final class LobbyServiceMethodDescriptorSupplier
      extends LobbyServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    LobbyServiceMethodDescriptorSupplier(String methodName) {
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
      synchronized (LobbyServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new LobbyServiceFileDescriptorSupplier())
              .addMethod(getJoinGameMethod())
              .addMethod(getLeaveGameMethod())
              .addMethod(getStartGameMethod())
              .addMethod(getListGamesMethod())
              .addMethod(getReissueSeatTokenMethod())
              .addMethod(getForfeitSeatMethod())
              .addMethod(getReplaceSeatByBotMethod())
              .addMethod(getAbortGameMethod())
              .build();
        }
      }
    }
    return result;
  }
}
