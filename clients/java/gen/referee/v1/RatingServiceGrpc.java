package referee.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * RatingService reads the ratings that follow a player from table to table: one openskill
 * (Plackett-Luce) rating per game and player, updated once when a rated table's game ends:
 * a lobby table created with CreateGameRequest.rated, or a table of a tournament whose
 * CreateTournament presented an operator key. Only an operator key makes a table rated: it
 * vouches for the player ids. A player is the `player_id` the operator's frontend gave
 * (JoinGame, or ParticipantSpec.player_id), never a display name; a seat without one is not
 * rated. The referee's bots are rated under their strategy's id: `bot:random`,
 * `bot:heuristic`, `bot:search`. Competitive games rank the seats by place; The Gang's table
 * is one team, rated against the game's expectation of a team by its vaults
 * (docs/hosting.md).
 * Everything here is public (no token), like a tournament's standings. Each call spends
 * the caller's quota `rating_reads_per_second` (RESOURCE_EXHAUSTED RATING_READS_EXCEEDED,
 * with google.rpc.RetryInfo). Refusals: INVALID_ARGUMENT GAME_UNKNOWN / PLAYER_ID_INVALID
 * / PAGE_TOKEN_INVALID (a token that is not the `next_page_token` of the same listing),
 * NOT_FOUND RATING_NOT_FOUND (GetRating, ListRatingHistory: a player never rated in this
 * game).
 * </pre>
 */
@javax.annotation.Generated(
    value = "by gRPC proto compiler",
    comments = "Source: referee/v1/ratings.proto")
@io.grpc.stub.annotations.GrpcGenerated
public final class RatingServiceGrpc {

  private RatingServiceGrpc() {}

  public static final String SERVICE_NAME = "referee.v1.RatingService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<referee.v1.Ratings.GetRatingRequest,
      referee.v1.Ratings.GetRatingResponse> getGetRatingMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetRating",
      requestType = referee.v1.Ratings.GetRatingRequest.class,
      responseType = referee.v1.Ratings.GetRatingResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Ratings.GetRatingRequest,
      referee.v1.Ratings.GetRatingResponse> getGetRatingMethod() {
    io.grpc.MethodDescriptor<referee.v1.Ratings.GetRatingRequest, referee.v1.Ratings.GetRatingResponse> getGetRatingMethod;
    if ((getGetRatingMethod = RatingServiceGrpc.getGetRatingMethod) == null) {
      synchronized (RatingServiceGrpc.class) {
        if ((getGetRatingMethod = RatingServiceGrpc.getGetRatingMethod) == null) {
          RatingServiceGrpc.getGetRatingMethod = getGetRatingMethod =
              io.grpc.MethodDescriptor.<referee.v1.Ratings.GetRatingRequest, referee.v1.Ratings.GetRatingResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetRating"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Ratings.GetRatingRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Ratings.GetRatingResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RatingServiceMethodDescriptorSupplier("GetRating"))
              .build();
        }
      }
    }
    return getGetRatingMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Ratings.ListRatingHistoryRequest,
      referee.v1.Ratings.ListRatingHistoryResponse> getListRatingHistoryMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListRatingHistory",
      requestType = referee.v1.Ratings.ListRatingHistoryRequest.class,
      responseType = referee.v1.Ratings.ListRatingHistoryResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Ratings.ListRatingHistoryRequest,
      referee.v1.Ratings.ListRatingHistoryResponse> getListRatingHistoryMethod() {
    io.grpc.MethodDescriptor<referee.v1.Ratings.ListRatingHistoryRequest, referee.v1.Ratings.ListRatingHistoryResponse> getListRatingHistoryMethod;
    if ((getListRatingHistoryMethod = RatingServiceGrpc.getListRatingHistoryMethod) == null) {
      synchronized (RatingServiceGrpc.class) {
        if ((getListRatingHistoryMethod = RatingServiceGrpc.getListRatingHistoryMethod) == null) {
          RatingServiceGrpc.getListRatingHistoryMethod = getListRatingHistoryMethod =
              io.grpc.MethodDescriptor.<referee.v1.Ratings.ListRatingHistoryRequest, referee.v1.Ratings.ListRatingHistoryResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListRatingHistory"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Ratings.ListRatingHistoryRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Ratings.ListRatingHistoryResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RatingServiceMethodDescriptorSupplier("ListRatingHistory"))
              .build();
        }
      }
    }
    return getListRatingHistoryMethod;
  }

  private static volatile io.grpc.MethodDescriptor<referee.v1.Ratings.ListLeaderboardRequest,
      referee.v1.Ratings.ListLeaderboardResponse> getListLeaderboardMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListLeaderboard",
      requestType = referee.v1.Ratings.ListLeaderboardRequest.class,
      responseType = referee.v1.Ratings.ListLeaderboardResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<referee.v1.Ratings.ListLeaderboardRequest,
      referee.v1.Ratings.ListLeaderboardResponse> getListLeaderboardMethod() {
    io.grpc.MethodDescriptor<referee.v1.Ratings.ListLeaderboardRequest, referee.v1.Ratings.ListLeaderboardResponse> getListLeaderboardMethod;
    if ((getListLeaderboardMethod = RatingServiceGrpc.getListLeaderboardMethod) == null) {
      synchronized (RatingServiceGrpc.class) {
        if ((getListLeaderboardMethod = RatingServiceGrpc.getListLeaderboardMethod) == null) {
          RatingServiceGrpc.getListLeaderboardMethod = getListLeaderboardMethod =
              io.grpc.MethodDescriptor.<referee.v1.Ratings.ListLeaderboardRequest, referee.v1.Ratings.ListLeaderboardResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListLeaderboard"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Ratings.ListLeaderboardRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  referee.v1.Ratings.ListLeaderboardResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RatingServiceMethodDescriptorSupplier("ListLeaderboard"))
              .build();
        }
      }
    }
    return getListLeaderboardMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static RatingServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RatingServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RatingServiceStub>() {
        @java.lang.Override
        public RatingServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RatingServiceStub(channel, callOptions);
        }
      };
    return RatingServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static RatingServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RatingServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RatingServiceBlockingStub>() {
        @java.lang.Override
        public RatingServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RatingServiceBlockingStub(channel, callOptions);
        }
      };
    return RatingServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static RatingServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RatingServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RatingServiceFutureStub>() {
        @java.lang.Override
        public RatingServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RatingServiceFutureStub(channel, callOptions);
        }
      };
    return RatingServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * RatingService reads the ratings that follow a player from table to table: one openskill
   * (Plackett-Luce) rating per game and player, updated once when a rated table's game ends:
   * a lobby table created with CreateGameRequest.rated, or a table of a tournament whose
   * CreateTournament presented an operator key. Only an operator key makes a table rated: it
   * vouches for the player ids. A player is the `player_id` the operator's frontend gave
   * (JoinGame, or ParticipantSpec.player_id), never a display name; a seat without one is not
   * rated. The referee's bots are rated under their strategy's id: `bot:random`,
   * `bot:heuristic`, `bot:search`. Competitive games rank the seats by place; The Gang's table
   * is one team, rated against the game's expectation of a team by its vaults
   * (docs/hosting.md).
   * Everything here is public (no token), like a tournament's standings. Each call spends
   * the caller's quota `rating_reads_per_second` (RESOURCE_EXHAUSTED RATING_READS_EXCEEDED,
   * with google.rpc.RetryInfo). Refusals: INVALID_ARGUMENT GAME_UNKNOWN / PLAYER_ID_INVALID
   * / PAGE_TOKEN_INVALID (a token that is not the `next_page_token` of the same listing),
   * NOT_FOUND RATING_NOT_FOUND (GetRating, ListRatingHistory: a player never rated in this
   * game).
   * </pre>
   */
  public static abstract class RatingServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * A player's rating for one game now.
     * </pre>
     */
    public void getRating(referee.v1.Ratings.GetRatingRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Ratings.GetRatingResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetRatingMethod(), responseObserver);
    }

    /**
     * <pre>
     * A player's rated games for one game, newest first, paged: the rating before and after
     * each.
     * </pre>
     */
    public void listRatingHistory(referee.v1.Ratings.ListRatingHistoryRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Ratings.ListRatingHistoryResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListRatingHistoryMethod(), responseObserver);
    }

    /**
     * <pre>
     * A game's players by their conservative rating (`ordinal`, highest first), paged.
     * </pre>
     */
    public void listLeaderboard(referee.v1.Ratings.ListLeaderboardRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Ratings.ListLeaderboardResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListLeaderboardMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getGetRatingMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Ratings.GetRatingRequest,
                referee.v1.Ratings.GetRatingResponse>(
                  this, METHODID_GET_RATING)))
          .addMethod(
            getListRatingHistoryMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Ratings.ListRatingHistoryRequest,
                referee.v1.Ratings.ListRatingHistoryResponse>(
                  this, METHODID_LIST_RATING_HISTORY)))
          .addMethod(
            getListLeaderboardMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                referee.v1.Ratings.ListLeaderboardRequest,
                referee.v1.Ratings.ListLeaderboardResponse>(
                  this, METHODID_LIST_LEADERBOARD)))
          .build();
    }
  }

  /**
   * <pre>
   * RatingService reads the ratings that follow a player from table to table: one openskill
   * (Plackett-Luce) rating per game and player, updated once when a rated table's game ends:
   * a lobby table created with CreateGameRequest.rated, or a table of a tournament whose
   * CreateTournament presented an operator key. Only an operator key makes a table rated: it
   * vouches for the player ids. A player is the `player_id` the operator's frontend gave
   * (JoinGame, or ParticipantSpec.player_id), never a display name; a seat without one is not
   * rated. The referee's bots are rated under their strategy's id: `bot:random`,
   * `bot:heuristic`, `bot:search`. Competitive games rank the seats by place; The Gang's table
   * is one team, rated against the game's expectation of a team by its vaults
   * (docs/hosting.md).
   * Everything here is public (no token), like a tournament's standings. Each call spends
   * the caller's quota `rating_reads_per_second` (RESOURCE_EXHAUSTED RATING_READS_EXCEEDED,
   * with google.rpc.RetryInfo). Refusals: INVALID_ARGUMENT GAME_UNKNOWN / PLAYER_ID_INVALID
   * / PAGE_TOKEN_INVALID (a token that is not the `next_page_token` of the same listing),
   * NOT_FOUND RATING_NOT_FOUND (GetRating, ListRatingHistory: a player never rated in this
   * game).
   * </pre>
   */
  public static final class RatingServiceStub extends io.grpc.stub.AbstractAsyncStub<RatingServiceStub> {
    private RatingServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RatingServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RatingServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * A player's rating for one game now.
     * </pre>
     */
    public void getRating(referee.v1.Ratings.GetRatingRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Ratings.GetRatingResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetRatingMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * A player's rated games for one game, newest first, paged: the rating before and after
     * each.
     * </pre>
     */
    public void listRatingHistory(referee.v1.Ratings.ListRatingHistoryRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Ratings.ListRatingHistoryResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListRatingHistoryMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * A game's players by their conservative rating (`ordinal`, highest first), paged.
     * </pre>
     */
    public void listLeaderboard(referee.v1.Ratings.ListLeaderboardRequest request,
        io.grpc.stub.StreamObserver<referee.v1.Ratings.ListLeaderboardResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListLeaderboardMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * <pre>
   * RatingService reads the ratings that follow a player from table to table: one openskill
   * (Plackett-Luce) rating per game and player, updated once when a rated table's game ends:
   * a lobby table created with CreateGameRequest.rated, or a table of a tournament whose
   * CreateTournament presented an operator key. Only an operator key makes a table rated: it
   * vouches for the player ids. A player is the `player_id` the operator's frontend gave
   * (JoinGame, or ParticipantSpec.player_id), never a display name; a seat without one is not
   * rated. The referee's bots are rated under their strategy's id: `bot:random`,
   * `bot:heuristic`, `bot:search`. Competitive games rank the seats by place; The Gang's table
   * is one team, rated against the game's expectation of a team by its vaults
   * (docs/hosting.md).
   * Everything here is public (no token), like a tournament's standings. Each call spends
   * the caller's quota `rating_reads_per_second` (RESOURCE_EXHAUSTED RATING_READS_EXCEEDED,
   * with google.rpc.RetryInfo). Refusals: INVALID_ARGUMENT GAME_UNKNOWN / PLAYER_ID_INVALID
   * / PAGE_TOKEN_INVALID (a token that is not the `next_page_token` of the same listing),
   * NOT_FOUND RATING_NOT_FOUND (GetRating, ListRatingHistory: a player never rated in this
   * game).
   * </pre>
   */
  public static final class RatingServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<RatingServiceBlockingStub> {
    private RatingServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RatingServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RatingServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * A player's rating for one game now.
     * </pre>
     */
    public referee.v1.Ratings.GetRatingResponse getRating(referee.v1.Ratings.GetRatingRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetRatingMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * A player's rated games for one game, newest first, paged: the rating before and after
     * each.
     * </pre>
     */
    public referee.v1.Ratings.ListRatingHistoryResponse listRatingHistory(referee.v1.Ratings.ListRatingHistoryRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListRatingHistoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * A game's players by their conservative rating (`ordinal`, highest first), paged.
     * </pre>
     */
    public referee.v1.Ratings.ListLeaderboardResponse listLeaderboard(referee.v1.Ratings.ListLeaderboardRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListLeaderboardMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * RatingService reads the ratings that follow a player from table to table: one openskill
   * (Plackett-Luce) rating per game and player, updated once when a rated table's game ends:
   * a lobby table created with CreateGameRequest.rated, or a table of a tournament whose
   * CreateTournament presented an operator key. Only an operator key makes a table rated: it
   * vouches for the player ids. A player is the `player_id` the operator's frontend gave
   * (JoinGame, or ParticipantSpec.player_id), never a display name; a seat without one is not
   * rated. The referee's bots are rated under their strategy's id: `bot:random`,
   * `bot:heuristic`, `bot:search`. Competitive games rank the seats by place; The Gang's table
   * is one team, rated against the game's expectation of a team by its vaults
   * (docs/hosting.md).
   * Everything here is public (no token), like a tournament's standings. Each call spends
   * the caller's quota `rating_reads_per_second` (RESOURCE_EXHAUSTED RATING_READS_EXCEEDED,
   * with google.rpc.RetryInfo). Refusals: INVALID_ARGUMENT GAME_UNKNOWN / PLAYER_ID_INVALID
   * / PAGE_TOKEN_INVALID (a token that is not the `next_page_token` of the same listing),
   * NOT_FOUND RATING_NOT_FOUND (GetRating, ListRatingHistory: a player never rated in this
   * game).
   * </pre>
   */
  public static final class RatingServiceFutureStub extends io.grpc.stub.AbstractFutureStub<RatingServiceFutureStub> {
    private RatingServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RatingServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RatingServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * A player's rating for one game now.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Ratings.GetRatingResponse> getRating(
        referee.v1.Ratings.GetRatingRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetRatingMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * A player's rated games for one game, newest first, paged: the rating before and after
     * each.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Ratings.ListRatingHistoryResponse> listRatingHistory(
        referee.v1.Ratings.ListRatingHistoryRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListRatingHistoryMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * A game's players by their conservative rating (`ordinal`, highest first), paged.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<referee.v1.Ratings.ListLeaderboardResponse> listLeaderboard(
        referee.v1.Ratings.ListLeaderboardRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListLeaderboardMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_GET_RATING = 0;
  private static final int METHODID_LIST_RATING_HISTORY = 1;
  private static final int METHODID_LIST_LEADERBOARD = 2;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final RatingServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(RatingServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_GET_RATING:
          serviceImpl.getRating((referee.v1.Ratings.GetRatingRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Ratings.GetRatingResponse>) responseObserver);
          break;
        case METHODID_LIST_RATING_HISTORY:
          serviceImpl.listRatingHistory((referee.v1.Ratings.ListRatingHistoryRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Ratings.ListRatingHistoryResponse>) responseObserver);
          break;
        case METHODID_LIST_LEADERBOARD:
          serviceImpl.listLeaderboard((referee.v1.Ratings.ListLeaderboardRequest) request,
              (io.grpc.stub.StreamObserver<referee.v1.Ratings.ListLeaderboardResponse>) responseObserver);
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

  private static abstract class RatingServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    RatingServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return referee.v1.Ratings.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("RatingService");
    }
  }

  private static final class RatingServiceFileDescriptorSupplier
      extends RatingServiceBaseDescriptorSupplier {
    RatingServiceFileDescriptorSupplier() {}
  }

  private static final class RatingServiceMethodDescriptorSupplier
      extends RatingServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    RatingServiceMethodDescriptorSupplier(String methodName) {
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
      synchronized (RatingServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new RatingServiceFileDescriptorSupplier())
              .addMethod(getGetRatingMethod())
              .addMethod(getListRatingHistoryMethod())
              .addMethod(getListLeaderboardMethod())
              .build();
        }
      }
    }
    return result;
  }
}
