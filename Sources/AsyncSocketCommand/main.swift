print("asyncsocket")
