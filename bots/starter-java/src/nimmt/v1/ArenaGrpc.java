package nimmt.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * The arena's one service.
 * </pre>
 */
@javax.annotation.Generated(
    value = "by gRPC proto compiler",
    comments = "Source: nimmt/v1/arena.proto")
@io.grpc.stub.annotations.GrpcGenerated
public final class ArenaGrpc {

  private ArenaGrpc() {}

  public static final String SERVICE_NAME = "nimmt.v1.Arena";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<nimmt.v1.ArenaOuterClass.BotMessage,
      nimmt.v1.ArenaOuterClass.EngineMessage> getPlayMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Play",
      requestType = nimmt.v1.ArenaOuterClass.BotMessage.class,
      responseType = nimmt.v1.ArenaOuterClass.EngineMessage.class,
      methodType = io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
  public static io.grpc.MethodDescriptor<nimmt.v1.ArenaOuterClass.BotMessage,
      nimmt.v1.ArenaOuterClass.EngineMessage> getPlayMethod() {
    io.grpc.MethodDescriptor<nimmt.v1.ArenaOuterClass.BotMessage, nimmt.v1.ArenaOuterClass.EngineMessage> getPlayMethod;
    if ((getPlayMethod = ArenaGrpc.getPlayMethod) == null) {
      synchronized (ArenaGrpc.class) {
        if ((getPlayMethod = ArenaGrpc.getPlayMethod) == null) {
          ArenaGrpc.getPlayMethod = getPlayMethod =
              io.grpc.MethodDescriptor.<nimmt.v1.ArenaOuterClass.BotMessage, nimmt.v1.ArenaOuterClass.EngineMessage>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Play"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  nimmt.v1.ArenaOuterClass.BotMessage.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  nimmt.v1.ArenaOuterClass.EngineMessage.getDefaultInstance()))
              .setSchemaDescriptor(new ArenaMethodDescriptorSupplier("Play"))
              .build();
        }
      }
    }
    return getPlayMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static ArenaStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ArenaStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ArenaStub>() {
        @java.lang.Override
        public ArenaStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ArenaStub(channel, callOptions);
        }
      };
    return ArenaStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static ArenaBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ArenaBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ArenaBlockingStub>() {
        @java.lang.Override
        public ArenaBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ArenaBlockingStub(channel, callOptions);
        }
      };
    return ArenaBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static ArenaFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ArenaFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ArenaFutureStub>() {
        @java.lang.Override
        public ArenaFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ArenaFutureStub(channel, callOptions);
        }
      };
    return ArenaFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * The arena's one service.
   * </pre>
   */
  public static abstract class ArenaImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * Play a match: the bot streams Hello then Answers; the arena streams everything else.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<nimmt.v1.ArenaOuterClass.BotMessage> play(
        io.grpc.stub.StreamObserver<nimmt.v1.ArenaOuterClass.EngineMessage> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getPlayMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getPlayMethod(),
            io.grpc.stub.ServerCalls.asyncBidiStreamingCall(
              new MethodHandlers<
                nimmt.v1.ArenaOuterClass.BotMessage,
                nimmt.v1.ArenaOuterClass.EngineMessage>(
                  this, METHODID_PLAY)))
          .build();
    }
  }

  /**
   * <pre>
   * The arena's one service.
   * </pre>
   */
  public static final class ArenaStub extends io.grpc.stub.AbstractAsyncStub<ArenaStub> {
    private ArenaStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ArenaStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ArenaStub(channel, callOptions);
    }

    /**
     * <pre>
     * Play a match: the bot streams Hello then Answers; the arena streams everything else.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<nimmt.v1.ArenaOuterClass.BotMessage> play(
        io.grpc.stub.StreamObserver<nimmt.v1.ArenaOuterClass.EngineMessage> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(getPlayMethod(), getCallOptions()), responseObserver);
    }
  }

  /**
   * <pre>
   * The arena's one service.
   * </pre>
   */
  public static final class ArenaBlockingStub extends io.grpc.stub.AbstractBlockingStub<ArenaBlockingStub> {
    private ArenaBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ArenaBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ArenaBlockingStub(channel, callOptions);
    }
  }

  /**
   * <pre>
   * The arena's one service.
   * </pre>
   */
  public static final class ArenaFutureStub extends io.grpc.stub.AbstractFutureStub<ArenaFutureStub> {
    private ArenaFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ArenaFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ArenaFutureStub(channel, callOptions);
    }
  }

  private static final int METHODID_PLAY = 0;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final ArenaImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(ArenaImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
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
              (io.grpc.stub.StreamObserver<nimmt.v1.ArenaOuterClass.EngineMessage>) responseObserver);
        default:
          throw new AssertionError();
      }
    }
  }

  private static abstract class ArenaBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    ArenaBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return nimmt.v1.ArenaOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("Arena");
    }
  }

  private static final class ArenaFileDescriptorSupplier
      extends ArenaBaseDescriptorSupplier {
    ArenaFileDescriptorSupplier() {}
  }

  private static final class ArenaMethodDescriptorSupplier
      extends ArenaBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    ArenaMethodDescriptorSupplier(String methodName) {
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
      synchronized (ArenaGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new ArenaFileDescriptorSupplier())
              .addMethod(getPlayMethod())
              .build();
        }
      }
    }
    return result;
  }
}
