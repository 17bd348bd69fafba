print("stipple")
