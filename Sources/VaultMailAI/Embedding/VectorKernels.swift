/// The element-wise and row-wise steps of a forward pass that BLAS does not do (LayerNorm,
/// softmax, GELU, sums), written over 16-float SIMD vectors: scalar loops with `erff`/`expf`
/// calls took a third of the time beside the matrix products.
enum VectorKernels {
    typealias Vector = SIMD16<Float>
    static let lanes = Vector.scalarCount

    @inline(__always)
    static func load(_ pointer: UnsafePointer<Float>) -> Vector {
        UnsafeRawPointer(pointer).loadUnaligned(as: Vector.self)
    }

    @inline(__always)
    static func store(_ vector: Vector, _ pointer: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: vector, as: Vector.self)
    }

    /// `out[k] = a[k] + b[k]` for `count` floats.
    static func add(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<Float>) {
        var k = 0
        while k + lanes <= count {
            store(load(a + k) + load(b + k), out + k)
            k += lanes
        }
        while k < count {
            out[k] = a[k] + b[k]
            k += 1
        }
    }

    /// `out[k] += a[k]` for `count` floats.
    static func accumulate(_ a: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<Float>) {
        add(a, out, count: count, into: out)
    }

    /// LayerNorm of one row of `width` floats: `(x - mean) / √(variance + ε) · weight + bias`.
    static func layerNorm(
        _ x: UnsafePointer<Float>, width: Int, weight: UnsafePointer<Float>, bias: UnsafePointer<Float>,
        epsilon: Float, into out: UnsafeMutablePointer<Float>
    ) {
        var sums = Vector()
        var k = 0
        while k + lanes <= width {
            sums += load(x + k)
            k += lanes
        }
        var sum = sums.sum()
        while k < width {
            sum += x[k]
            k += 1
        }
        let mean = sum / Float(width)
        var squares = Vector()
        k = 0
        while k + lanes <= width {
            let centred = load(x + k) - mean
            squares += centred * centred
            k += lanes
        }
        var square = squares.sum()
        while k < width {
            square += (x[k] - mean) * (x[k] - mean)
            k += 1
        }
        let inverse = 1 / (square / Float(width) + epsilon).squareRoot()
        k = 0
        while k + lanes <= width {
            store((load(x + k) - mean) * inverse * load(weight + k) + load(bias + k), out + k)
            k += lanes
        }
        while k < width {
            out[k] = (x[k] - mean) * inverse * weight[k] + bias[k]
            k += 1
        }
    }

    /// Softmax of one row of `width` floats, in place.
    static func softmax(_ x: UnsafeMutablePointer<Float>, width: Int) {
        var largest = -Float.infinity
        for k in 0..<width { largest = max(largest, x[k]) }
        for k in 0..<width { x[k] = exp(x[k] - largest) }
        let inverse = 1 / sum(x, count: width)
        for k in 0..<width { x[k] *= inverse }
    }

    /// The sum of `count` floats.
    static func sum(_ x: UnsafePointer<Float>, count: Int) -> Float {
        var sums = Vector()
        var k = 0
        while k + lanes <= count {
            sums += load(x + k)
            k += lanes
        }
        var sum = sums.sum()
        while k < count {
            sum += x[k]
            k += 1
        }
        return sum
    }

    /// GELU, erf form (BERT's `gelu`): `x · ½ (1 + erf(x / √2))`, in place over `count` floats.
    static func gelu(_ x: UnsafeMutablePointer<Float>, count: Int) {
        let inverseRoot2: Float = 0.70710678118654752
        for k in 0..<count {
            let v = x[k]
            x[k] = 0.5 * v * (1 + erf(v * inverseRoot2))
        }
    }

    // The two functions below are branch-free scalar code the compiler vectorizes in the loops above.

    /// erf to within 1e-7: the rational approximation Eigen and XLA use for float
    /// (`x·P(x²)/Q(x²)` on [-4, 4], ±1 beyond).
    @inline(__always)
    static func erf(_ value: Float) -> Float {
        let x = value < -4 ? -4 : (value > 4 ? 4 : value)
        let x2 = x * x
        var p: Float = x2 * -2.72614225801306e-10 + 2.77068142495902e-08
        p = x2 * p - 2.10102402082508e-06
        p = x2 * p - 5.69250639462346e-05
        p = x2 * p - 7.34990630326855e-04
        p = x2 * p - 2.95459980854025e-03
        p = x2 * p - 1.60960333262415e-02
        var q: Float = x2 * -1.45660718464996e-05 - 2.13374055278905e-04
        q = x2 * q - 1.68282697438203e-03
        q = x2 * q - 7.37332916720468e-03
        q = x2 * q - 1.42647390514189e-02
        return x * p / q
    }

    /// eˣ to about 1 ulp (Cephes' `expf`: 2ⁿ · e^r with |r| ≤ ½ ln 2 and a degree-6 polynomial),
    /// for x in [-87, 88]; smaller x give about 1e-38, as softmax needs.
    @inline(__always)
    static func exp(_ value: Float) -> Float {
        let x = value < -87 ? -87 : (value > 88 ? 88 : value)
        // n = round(x / ln 2), read from the low bits of 1.5·2²³ + n.
        let shifted = x * 1.44269504088896341 + 12582912
        let n = shifted - 12582912
        let r = x - n * 0.693359375 + n * 2.12194440e-4
        var p: Float = r * 1.9875691500e-4 + 1.3981999507e-3
        p = r * p + 8.3334519073e-3
        p = r * p + 4.1665795894e-2
        p = r * p + 1.6666665459e-1
        p = r * p + 5.0000001201e-1
        let y = p * r * r + r + 1
        let twoToN = Float(bitPattern: (shifted.bitPattern &- 0x4B40_0000 &+ 127) &<< 23)
        return y * twoToN
    }
}
