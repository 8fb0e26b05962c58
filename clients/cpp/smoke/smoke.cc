// The clients stage's smoke program: plays the shared script against a live referee over
// gRPC with the generated stubs of gen/. Create a Gang of Four table, take the seat that
// acts, list its legal moves, follow the watch stream, submit one move, see its update
// arrive, and read the typed refusal of a move out of turn. It prints one line per step
// and exits 1 at the first failure.
//
//   referee_smoke 127.0.0.1:50051

#include <chrono>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "referee/v1/referee.grpc.pb.h"

namespace {

namespace v1 = referee::v1;
using Watch = grpc::ClientReader<v1::WatchGameResponse>;

// Every call, the watch stream included, gets this long: a broken server fails fast.
constexpr std::chrono::seconds kCallTimeout{10};

// A step that did not go as the script says; main prints it and exits 1.
class StepFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The canonical name of a status code (grpc++ has none to offer).
std::string CodeName(grpc::StatusCode code) {
  // Indexed by code: 0 OK to 16 UNAUTHENTICATED.
  static const char* const kNames[] = {
      "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
      "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
      "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL",
      "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};
  const auto index = static_cast<std::size_t>(code);
  return index < std::size(kNames) ? kNames[index] : std::to_string(index);
}

// The reason code of a refusal (e.g. NOT_YOUR_TURN), empty when there is none. The
// referee sends a google.rpc.Status as the grpc-status-details-bin trailer, which
// grpc::Status::error_details() holds serialized; its details hold a google.rpc.ErrorInfo.
std::string RefusalReason(const grpc::Status& status) {
  google::rpc::Status details;
  if (!details.ParseFromString(status.error_details())) return "";
  for (const google::protobuf::Any& detail : details.details()) {
    google::rpc::ErrorInfo info;
    if (detail.UnpackTo(&info)) return info.reason();
  }
  return "";
}

void Check(const grpc::Status& status, const std::string& call) {
  if (!status.ok()) {
    throw StepFailed(call + ": " + CodeName(status.error_code()) + " " +
                     status.error_message());
  }
}

std::string SeatList(const google::protobuf::RepeatedField<std::int32_t>& seats) {
  std::ostringstream text;
  text << '[';
  for (int i = 0; i < seats.size(); ++i) text << (i ? ", " : "") << seats[i];
  text << ']';
  return text.str();
}

void SetDeadline(grpc::ClientContext& context) {
  context.set_deadline(std::chrono::system_clock::now() + kCallTimeout);
}

// One seat of one table: every call it makes carries the seat's token.
struct Seat {
  v1::RefereeService::Stub& referee;
  std::string game_id;
  std::string token;

  void Prepare(grpc::ClientContext& context) const {
    context.AddMetadata("authorization", "Bearer " + token);
    SetDeadline(context);
  }
};

v1::CreateGameResponse CreateGame(v1::RefereeService::Stub& referee) {
  v1::CreateGameRequest request;
  request.set_game("gang_of_four");
  request.set_seats(4);
  v1::CreateGameResponse table;
  grpc::ClientContext context;
  SetDeadline(context);
  Check(referee.CreateGame(&context, request, &table), "CreateGame");
  if (table.seat_tokens_size() != 4) {
    throw StepFailed("CreateGame: " + std::to_string(table.seat_tokens_size()) +
                     " seat tokens, want 4");
  }
  std::cout << "create game: " << table.game_id() << " with " << table.seat_tokens_size()
            << " seat tokens" << std::endl;
  return table;
}

// Seat 0's view names the seat that acts first (the holder of the multicoloured 1).
Seat SeatToAct(v1::RefereeService::Stub& referee, const v1::CreateGameResponse& table) {
  const Seat first{referee, table.game_id(), table.seat_tokens(0).token()};
  v1::GetViewRequest request;
  request.set_game_id(table.game_id());
  v1::GetViewResponse reply;
  grpc::ClientContext context;
  first.Prepare(context);
  Check(referee.GetView(&context, request, &reply), "GetView");
  const auto& to_act = reply.view().to_act();
  if (to_act.empty() || to_act[0] < 0 || to_act[0] >= table.seat_tokens_size()) {
    throw StepFailed("GetView: to_act " + SeatList(to_act) + " names no seat");
  }
  std::cout << "get view: seat " << to_act[0] << " acts" << std::endl;
  return Seat{referee, table.game_id(), table.seat_tokens(to_act[0]).token()};
}

v1::ListLegalMovesResponse ListLegalMoves(const Seat& seat) {
  v1::ListLegalMovesRequest request;
  request.set_game_id(seat.game_id);
  v1::ListLegalMovesResponse legal;
  grpc::ClientContext context;
  seat.Prepare(context);
  Check(seat.referee.ListLegalMoves(&context, request, &legal), "ListLegalMoves");
  if (legal.moves().empty()) throw StepFailed("ListLegalMoves: no moves");
  std::cout << "list legal moves: " << legal.moves_size() << " moves at version "
            << legal.version() << std::endl;
  return legal;
}

// The updates after `version`. The referee buffers them until they are read, so the
// same thread can submit a move and read its update afterwards.
std::unique_ptr<Watch> OpenWatch(const Seat& seat, grpc::ClientContext& context,
                                 std::int64_t version) {
  v1::WatchGameRequest request;
  request.set_game_id(seat.game_id);
  request.set_after_version(version);
  seat.Prepare(context);
  auto watch = seat.referee.WatchGame(&context, request);
  std::cout << "watch: open after version " << version << std::endl;
  return watch;
}

// Plays `move` if the game is still at `expected_version`; returns the version it made.
std::int64_t Submit(const Seat& seat, const v1::Move& move, std::int64_t expected_version) {
  v1::SubmitMoveRequest request;
  request.set_game_id(seat.game_id);
  // Unique per seat and game, which is all the referee's idempotency asks of it.
  request.set_client_move_id("cpp-smoke-1");
  *request.mutable_move() = move;
  request.set_expected_version(expected_version);
  v1::SubmitMoveResponse reply;
  grpc::ClientContext context;
  seat.Prepare(context);
  Check(seat.referee.SubmitMove(&context, request, &reply), "SubmitMove");
  std::cout << "submit move: version " << reply.version() << std::endl;
  return reply.version();
}

void AwaitUpdate(Watch& watch, std::int64_t version) {
  v1::WatchGameResponse update;
  while (watch.Read(&update)) {
    if (update.version() == version) {
      std::cout << "watch: version " << update.version() << ", to_act "
                << SeatList(update.view().to_act()) << std::endl;
      return;
    }
  }
  Check(watch.Finish(), "WatchGame");
  throw StepFailed("WatchGame: ended before version " + std::to_string(version));
}

// The seat has just moved, so the same move again (a new client_move_id, no expected
// version) must be refused as out of turn, with a reason code.
void ExpectRefusal(const Seat& seat, const v1::Move& move) {
  v1::SubmitMoveRequest request;
  request.set_game_id(seat.game_id);
  request.set_client_move_id("cpp-smoke-2");
  *request.mutable_move() = move;
  v1::SubmitMoveResponse reply;
  grpc::ClientContext context;
  seat.Prepare(context);
  const grpc::Status status = seat.referee.SubmitMove(&context, request, &reply);
  if (status.ok()) throw StepFailed("SubmitMove again: accepted, want a refusal");
  const std::string reason = RefusalReason(status);
  if (status.error_code() != grpc::StatusCode::FAILED_PRECONDITION || reason.empty()) {
    throw StepFailed("SubmitMove again: " + CodeName(status.error_code()) + " reason '" +
                     reason + "', want FAILED_PRECONDITION with a reason");
  }
  std::cout << "refusal: " << CodeName(status.error_code()) << " " << reason << " ("
            << status.error_message() << ")" << std::endl;
}

void Play(const std::string& address) {
  auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  const auto referee = v1::RefereeService::NewStub(channel);
  const v1::CreateGameResponse table = CreateGame(*referee);
  const Seat seat = SeatToAct(*referee, table);
  const v1::ListLegalMovesResponse legal = ListLegalMoves(seat);
  grpc::ClientContext watch_context;
  const auto watch = OpenWatch(seat, watch_context, legal.version());
  const std::int64_t version = Submit(seat, legal.moves(0), legal.version());
  AwaitUpdate(*watch, version);
  ExpectRefusal(seat, legal.moves(0));
  // Closing our side of a live stream: cancel it, then Finish() returns CANCELLED.
  watch_context.TryCancel();
  watch->Finish();
  std::cout << "watch: closed" << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: referee_smoke GRPC_ADDRESS" << std::endl;
    return 2;
  }
  try {
    Play(argv[1]);
  } catch (const StepFailed& failure) {
    std::cerr << "FAILED: " << failure.what() << std::endl;
    return 1;
  }
  return 0;
}
