"""Published test vectors the group vectors are anchored to (spec/vectors/groups.json):
tools/gen_group_vectors.py refuses to write the file unless the code reproduces them.

- RFC 9496 appendix A: ristretto255's multiples of the generator (A.1), its invalid
  encodings in the RFC's groups (A.2), and the one-way map (A.3, whose 64-byte inputs
  are SHA-512 of the labels below, as the test vectors of ristretto.group name them).
- RFC 9380 appendix K.3: expand_message_xmd with SHA-512, which ristretto255's hash
  to the group (RFC 9380 appendix B) feeds to the one-way map.
- RFC 9380 appendix J.9.1: BLS12381G1_XMD:SHA-256_SSWU_RO_ (its x, in the compressed
  encoding with the y sort flag of the RFC's y).
"""

RISTRETTO_MULTIPLES = [
    "0000000000000000000000000000000000000000000000000000000000000000",
    "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",
    "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919",
    "94741f5d5d52755ece4f23f044ee27d5d1ea1e2bd196b462166b16152a9d0259",
    "da80862773358b466ffadfe0b3293ab3d9fd53c5ea6c955358f568322daf6a57",
    "e882b131016b52c1d3337080187cf768423efccbb517bb495ab812c4160ff44e",
    "f64746d3c92b13050ed8d80236a7f0007c3b3f962f5ba793d19a601ebb1df403",
    "44f53520926ec81fbd5a387845beb7df85a96a24ece18738bdcfa6a7822a176d",
    "903293d8f2287ebe10e2374dc1a53e0bc887e592699f02d077d5263cdd55601c",
    "02622ace8f7303a31cafc63f8fc48fdc16e1c8c8d234b2f0d6685282a9076031",
    "20706fd788b2720a1ed2a5dad4952b01f413bcf0e7564de8cdc816689e2db95f",
    "bce83f8ba5dd2fa572864c24ba1810f9522bc6004afe95877ac73241cafdab42",
    "e4549ee16b9aa03099ca208c67adafcafa4c3f3e4e5303de6026e3ca8ff84460",
    "aa52e000df2e16f55fb1032fc33bc42742dad6bd5a8fc0be0167436c5948501f",
    "46376b80f409b29dc2b5f6f0c52591990896e5716f41477cd30085ab7f10301e",
    "e0c418f7c8d9c4cdd7395b93ea124f3ad99021bb681dfc3302a9d99a2e53e64e",
]

RISTRETTO_INVALID = [
    ("00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", "non-canonical field"),
    ("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", "non-canonical field"),
    ("f3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", "non-canonical field"),
    ("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", "non-canonical field"),
    ("0100000000000000000000000000000000000000000000000000000000000000", "negative field element"),
    ("01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", "negative field element"),
    ("ed57ffd8c914fb201471d1c3d245ce3c746fcbe63a3679d51b6a516ebebe0e20", "negative field element"),
    ("c34c4e1826e5d403b78e246e88aa051c36ccf0aafebffe137d148a2bf9104562", "negative field element"),
    ("c940e5a4404157cfb1628b108db051a8d439e1a421394ec4ebccb9ec92a8ac78", "negative field element"),
    ("47cfc5497c53dc8e61c91d17fd626ffb1c49e2bca94eed052281b510b1117a24", "negative field element"),
    ("f1c6165d33367351b0da8f6e4511010c68174a03b6581212c71c0e1d026c3c72", "negative field element"),
    ("87260f7a2f12495118360f02c26a470f450dadf34a413d21042b43b9d93e1309", "negative field element"),
    ("26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371", "non-square x^2"),
    ("4eac077a713c57b4f4397629a4145982c661f48044dd3f96427d40b147d9742f", "non-square x^2"),
    ("de6a7b00deadc788eb6b6c8d20c0ae96c2f2019078fa604fee5b87d6e989ad7b", "non-square x^2"),
    ("bcab477be20861e01e4a0e295284146a510150d9817763caf1a6f4b422d67042", "non-square x^2"),
    ("2a292df7e32cababbd9de088d1d1abec9fc0440f637ed2fba145094dc14bea08", "non-square x^2"),
    ("f4a9e534fc0d216c44b218fa0c42d99635a0127ee2e53c712f70609649fdff22", "non-square x^2"),
    ("8268436f8c4126196cf64b3c7ddbda90746a378625f9813dd9b8457077256731", "non-square x^2"),
    ("2810e5cbc2cc4d4eece54f61c6f69758e289aa7ab440b3cbeaa21995c2f4232b", "non-square x^2"),
    ("3eb858e78f5a7254d8c9731174a94f76755fd3941c0ac93735c07ba14579630e", "negative xy"),
    ("a45fdc55c76448c049a1ab33f17023edfb2be3581e9c7aade8a6125215e04220", "negative xy"),
    ("d483fe813c6ba647ebbfd3ec41adca1c6130c2beeee9d9bf065c8d151c5f396e", "negative xy"),
    ("8a2e1d30050198c65a54483123960ccc38aef6848e1ec8f5f780e8523769ba32", "negative xy"),
    ("32888462f8b486c68ad7dd9610be5192bbeaf3b443951ac1a8118419d9fa097b", "negative xy"),
    ("227142501b9d4355ccba290404bde41575b037693cef1f438c47f8fbf35d1165", "negative xy"),
    ("5c37cc491da847cfeb9281d407efc41e15144c876e0170b499a96a22ed31e01e", "negative xy"),
    ("445425117cb8c90edcbc7c1cc0e74f747f2c1efa5630a967c64f287792a48a4b", "negative xy"),
    ("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", "s = -1: y = 0"),
]

RISTRETTO_ONE_WAY = [   # (label, element): the input is SHA-512(label)
    ("Ristretto is traditionally a short shot of espresso coffee",
     "3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46"),
    ("made with the normal amount of ground coffee but extracted with",
     "f26e5b6f7d362d2d2a94c5d0e7602cb4773c95a2e5c31a64f133189fa76ed61b"),
    ("about half the amount of water in the same amount of time",
     "006ccd2a9e6867e6a2c5cea83d3302cc9de128dd2a9a57dd8ee7b9d7ffe02826"),
    ("by using a finer grind.",
     "f8f0c87cf237953c5890aec3998169005dae3eca1fbb04548c635953c817f92a"),
    ("This produces a concentrated shot of coffee per volume.",
     "ae81e7dedf20a497e10c304a765c1767a42d6e06029758d2d7e8ef7cc4c41179"),
    ("Just pulling a normal shot short will produce a weaker shot",
     "e2705652ff9f5e44d3e841bf1c251cf7dddb77d140870d1ab2ed64f1a9ce8628"),
    ("and is not a Ristretto as some believe.",
     "80bd07262511cdde4863f8a7434cef696750681cb9510eea557088f76d9e5065"),
]

#: A.3's second table: four 64-byte inputs that the map sends to one element.
RISTRETTO_ONE_WAY_SAME = (
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff1200000000000000000000000000000000000000000000000000000000000000",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "0000000000000000000000000000000000000000000000000000000000000080ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "00000000000000000000000000000000000000000000000000000000000000001200000000000000000000000000000000000000000000000000000000000080",
), "304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f"

BLS12381G1_DST = "QUUX-V01-CS02-with-BLS12381G1_XMD:SHA-256_SSWU_RO_"
BLS12381G1_H2C = [   # (msg, x || y as the RFC prints them)
    ("",
     "052926add2207b76ca4fa57a8734416c8dc95e24501772c814278700eed6d1e4e8cf62d9c09db0fac349612b759e79a1"
     "08ba738453bfed09cb546dbb0783dbb3a5f1f566ed67bb6be0e8c67e2e81a4cc68ee29813bb7994998f3eae0c9c6a265"),
    ("abc",
     "03567bc5ef9c690c2ab2ecdf6a96ef1c139cc0b2f284dca0a9a7943388a49a3aee664ba5379a7655d3c68900be2f6903"
     "0b9c15f3fe6e5cf4211f346271d7b01c8f3b28be689c8429c85b67af215533311f0b8dfaaa154fa6b88176c229f2885d"),
    ("abcdef0123456789",
     "11e0b079dea29a68f0383ee94fed1b940995272407e3bb916bbf268c263ddd57a6a27200a784cbc248e84f357ce82d98"
     "03a87ae2caf14e8ee52e51fa2ed8eefe80f02457004ba4d486d6aa1f517c0889501dc7413753f9599b099ebcbbd2d709"),
    ("q128_" + "q" * 128,
     "15f68eaa693b95ccb85215dc65fa81038d69629f70aeee0d0f677cf22285e7bf58d7cb86eefe8f2e9bc3f8cb84fac488"
     "1807a1d50c29f430b8cafc4f8638dfeeadf51211e1602a5f184443076715f91bb90a48ba1e370edce6ae1062f5e6dd38"),
    ("a512_" + "a" * 512,
     "082aabae8b7dedb0e78aeb619ad3bfd9277a2f77ba7fad20ef6aabdc6c31d19ba5a6d12283553294c1825c4b3ca2dcfe"
     "05b84ae5a942248eea39e1d91030458c40153f3b654ab7872d779ad1e942856a20c438e8d99bc8abfbf74729ce1f7ac8"),
]

#: RFC 9380 appendix K.3: expand_message_xmd(SHA-512), under ristretto255's hash.
XMD_SHA512_DST = "QUUX-V01-CS02-with-expander-SHA512-256"
XMD_SHA512 = [   # (msg, len_in_bytes, uniform_bytes)
    ("", 32,
     "6b9a7312411d92f921c6f68ca0b6380730a1a4d982c507211a90964c394179ba"),
    ("abc", 32,
     "0da749f12fbe5483eb066a5f595055679b976e93abe9be6f0f6318bce7aca8dc"),
    ("abcdef0123456789", 32,
     "087e45a86e2939ee8b91100af1583c4938e0f5fc6c9db4b107b83346bc967f58"),
    ("q128_" + "q" * 128, 32,
     "7336234ee9983902440f6bc35b348352013becd88938d2afec44311caf8356b3"),
    ("a512_" + "a" * 512, 32,
     "57b5f7e766d5be68a6bfe1768e3c2b7f1228b3e4b3134956dd73a59b954c66f4"),
    ("", 128,
     "41b037d1734a5f8df225dd8c7de38f851efdb45c372887be655212d07251b921b052b62eaed99b46f72f2ef4cc96bfaf254ebbbec091e1a3b9e4fb5e5b619d2e"
     "0c5414800a1d882b62bb5cd1778f098b8eb6cb399d5d9d18f5d5842cf5d13d7eb00a7cff859b605da678b318bd0e65ebff70bec88c753b159a805d2c89c55961"),
    ("abc", 128,
     "7f1dddd13c08b543f2e2037b14cefb255b44c83cc397c1786d975653e36a6b11bdd7732d8b38adb4a0edc26a0cef4bb45217135456e58fbca1703cd6032cb134"
     "7ee720b87972d63fbf232587043ed2901bce7f22610c0419751c065922b488431851041310ad659e4b23520e1772ab29dcdeb2002222a363f0c2b1c972b3efe1"),
    ("abcdef0123456789", 128,
     "3f721f208e6199fe903545abc26c837ce59ac6fa45733f1baaf0222f8b7acb0424814fcb5eecf6c1d38f06e9d0a6ccfbf85ae612ab8735dfdf9ce84c372a77c8"
     "f9e1c1e952c3a61b7567dd0693016af51d2745822663d0c2367e3f4f0bed827feecc2aaf98c949b5ed0d35c3f1023d64ad1407924288d366ea159f46287e61ac"),
    ("q128_" + "q" * 128, 128,
     "b799b045a58c8d2b4334cf54b78260b45eec544f9f2fb5bd12fb603eaee70db7317bf807c406e26373922b7b8920fa29142703dd52bdf280084fb7ef69da78af"
     "df80b3586395b433dc66cde048a258e476a561e9deba7060af40adf30c64249ca7ddea79806ee5beb9a1422949471d267b21bc88e688e4014087a0b592b695ed"),
    ("a512_" + "a" * 512, 128,
     "05b0bfef265dcee87654372777b7c44177e2ae4c13a27f103340d9cd11c86cb2426ffcad5bd964080c2aee97f03be1ca18e30a1f14e27bc11ebbd650f305269c"
     "c9fb1db08bf90bfc79b42a952b46daf810359e7bc36452684784a64952c343c52e5124cd1f71d474d5197fefc571a92929c9084ffe1112cf5eea5192ebff330b"),
]
