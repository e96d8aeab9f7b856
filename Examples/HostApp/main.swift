print("host app")
